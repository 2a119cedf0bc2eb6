/**
 * MAC addresses as the fleet handles them: a canonical 12-digit lower-case hex string (`b83fd2aa1040`), and
 * every spelling a BMC prints one in. BlueField BMCs also print the card's base MAC as its base GUID: the MAC
 * with `0300` inserted after the OUI (`b83fd20300aa1040`, or `b83f:d203:00aa:1040`).
 */

export const MAC_SPELLINGS = [
  "colonUpper",
  "colonLower",
  "dashUpper",
  "dashLower",
  "bareUpper",
  "bareLower",
  "guidUpper",
  "guidLower",
  "guidColonUpper",
  "guidColonLower",
] as const;
export type MacSpelling = (typeof MAC_SPELLINGS)[number];

const GUID_FILLER = "0300";

/**
 * `B8:3F:D2:AA:10:40`, `b8-3f-…`, `b83fd2aa1040` → `b83fd2aa1040`; undefined for anything else or all zeros.
 */
export function canonicalMac(raw: string): string | undefined {
  const hex = raw.trim().replace(/[:\-.]/g, "");
  if (!/^[0-9a-fA-F]{12}$/.test(hex) || /^0{12}$/.test(hex) || /^f{12}$/i.test(hex)) return undefined;
  return hex.toLowerCase();
}

/** The MAC inside a BlueField base GUID (`b83f:d203:00aa:1040` or `b83fd20300aa1040`), if it is one. */
export function macOfGuid(raw: string): string | undefined {
  const match = /^([0-9a-fA-F]{4}):?([0-9a-fA-F]{4}):?([0-9a-fA-F]{4}):?([0-9a-fA-F]{4})$/.exec(raw.trim());
  if (!match) return undefined;
  const guid = match.slice(1).join("").toLowerCase();
  return guid.slice(6, 10) === GUID_FILLER ? canonicalMac(`${guid.slice(0, 6)}${guid.slice(10)}`) : undefined;
}

/** The canonical MAC as one spelling. */
export function spellMac(mac: string, spelling: MacSpelling): string {
  const upper = spelling.endsWith("Upper");
  const hex = upper ? mac.toUpperCase() : mac;
  switch (spelling) {
    case "colonUpper":
    case "colonLower":
      return groups(hex, 2).join(":");
    case "dashUpper":
    case "dashLower":
      return groups(hex, 2).join("-");
    case "bareUpper":
    case "bareLower":
      return hex;
    case "guidUpper":
    case "guidLower":
      return guidOf(hex, upper);
    case "guidColonUpper":
    case "guidColonLower":
      return groups(guidOf(hex, upper), 4).join(":");
  }
}

/** `AA:BB:CC:DD:EE:FF`, the notation expected machines and DHCP use. */
export function displayMac(mac: string): string {
  return spellMac(mac, "colonUpper");
}

/** The MAC `offset` addresses after `mac` (NIC ports count up from the card's base MAC). */
export function macPlus(mac: string, offset: number): string {
  const value = (Number.parseInt(mac, 16) + offset) % 2 ** 48;
  return value.toString(16).padStart(12, "0");
}

/** Distance from `base` to `mac` (both canonical). */
export function macOffset(base: string, mac: string): number {
  return Number.parseInt(mac, 16) - Number.parseInt(base, 16);
}

/** The first three bytes, the vendor's OUI. */
export function ouiOf(mac: string): string {
  return mac.slice(0, 6);
}

/**
 * The first five bytes: MACs of one NIC (its ports, a BlueField's base and Arm-side interfaces) share them,
 * so rewriting these and keeping the last byte keeps a card's addresses together.
 */
export function macGroupOf(mac: string): string {
  return mac.slice(0, 10);
}

function guidOf(hex: string, upper: boolean): string {
  return `${hex.slice(0, 6)}${upper ? GUID_FILLER.toUpperCase() : GUID_FILLER}${hex.slice(6)}`;
}

function groups(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
