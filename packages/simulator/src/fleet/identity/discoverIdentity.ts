import { isJsonObject, type JsonObject, linkOf, type MockupTree, stringField } from "@racksmith/testkit";
import { findBluefieldCards } from "./bluefieldCards.js";
import { documentReader, firstLink, memberPaths, type ReadDocument } from "./documentReader.js";
import { canonicalMac, macOfGuid } from "./macAddress.js";
import { scanDocuments } from "./scanDocuments.js";
import { spellingsOf, spellToken } from "./spelling.js";
import { forEachString, macCandidates, serialCandidate, uuidCandidate } from "./tokenCandidates.js";
import type {
  DpuRoles,
  IdentityToken,
  IdentityTokenKind,
  MockupIdentity,
  ModeSetting,
  ScannedDocument,
  SpelledToken,
} from "./types.js";

/**
 * Finds what identifies the machine a mockup describes — every serial, MAC and UUID, where each is spelled,
 * and which of them are the system serial, the BMC's MAC, the BlueField cards (host) or the card serial and
 * base MAC (DPU) — from the documents themselves, never from a list per mockup.
 */
export async function discoverIdentity(tree: MockupTree): Promise<MockupIdentity> {
  const documents = await scanDocuments(tree);
  const tokens = new TokenTable();
  for (const document of documents) {
    if (!document.body) continue;
    forEachString(document.body, (text, key) => {
      const serial = serialCandidate(text, key);
      if (serial) tokens.add("serial", serial);
      const uuid = uuidCandidate(text, key);
      if (uuid) tokens.add("uuid", uuid);
      for (const mac of macCandidates(text, key)) tokens.add("mac", mac);
    });
  }

  const read = documentReader(documents);
  const root = read("/redfish/v1");
  const systemPaths = memberPaths(read, linkOf(root?.Systems) ?? "/redfish/v1/Systems");
  const system = systemPaths[0] ? read(systemPaths[0]) : undefined;
  const systemSerial = tokens.find("serial", stringField(system, "SerialNumber")?.trim());
  const chassisOfSystem = firstLink(system, "Links", "Chassis");
  const chassisSerial =
    tokens.find(
      "serial",
      stringField(chassisOfSystem ? read(chassisOfSystem) : undefined, "SerialNumber")?.trim(),
    ) ?? systemSerial;
  const cards = findBluefieldCards(documents, read).map((card) => ({
    serial: tokens.add("serial", card.serial),
    ports: card.ports.map((mac) => tokens.add("mac", mac)),
  }));
  const dpu = dpuRoles(documents, tokens, systemSerial);
  const managerMac = tokens.find("mac", bmcPortMac(read, linkOf(root?.Managers) ?? "/redfish/v1/Managers"));

  // Every token is known now: look for where each is spelled.
  const spellings = spellingsPresent(tokens.list, documents);
  return {
    tokens: tokens.list,
    spellings,
    systemSerial,
    chassisSerial,
    managerMac,
    cards,
    dpu,
    systemPaths,
    pathsHaveTokens: documents.some((document) => spellings.some(({ text }) => document.path.includes(text))),
  };
}

class TokenTable {
  readonly list: IdentityToken[] = [];
  private readonly index = new Map<string, number>();

  add(kind: IdentityTokenKind, value: string): number {
    const key = `${kind}:${value}`;
    let position = this.index.get(key);
    if (position === undefined) {
      position = this.list.push({ kind, value }) - 1;
      this.index.set(key, position);
    }
    return position;
  }

  find(kind: IdentityTokenKind, value: string | undefined): number | undefined {
    return value ? this.index.get(`${kind}:${value}`) : undefined;
  }
}

/** The BMC's own port: the first manager interface with a MAC and an address, else the first with a MAC. */
function bmcPortMac(read: ReadDocument, managers: string): string | undefined {
  const manager = memberPaths(read, managers)[0];
  const interfaces = manager ? memberPaths(read, linkOf(read(manager)?.EthernetInterfaces)) : [];
  const candidates = interfaces
    .map(read)
    .filter((resource): resource is JsonObject => resource !== undefined)
    .map((resource) => ({
      mac: canonicalMac(
        stringField(resource, "MACAddress") ?? stringField(resource, "PermanentMACAddress") ?? "",
      ),
      addressed: hasAddress(resource),
    }))
    .filter((candidate) => candidate.mac !== undefined);
  return (candidates.find((candidate) => candidate.addressed) ?? candidates[0])?.mac;
}

function hasAddress(resource: JsonObject): boolean {
  const addresses = resource.IPv4Addresses;
  return (
    Array.isArray(addresses) &&
    addresses.some((entry) => {
      const address = isJsonObject(entry) ? stringField(entry, "Address") : undefined;
      return !!address && address !== "0.0.0.0";
    })
  );
}

/**
 * A DPU's card serial (`Card` chassis, else the system's), base MAC and the values saying it is in DPU mode.
 */
function dpuRoles(
  documents: readonly ScannedDocument[],
  tokens: TokenTable,
  systemSerial: number | undefined,
): DpuRoles | undefined {
  let baseMac: string | undefined;
  let sysImageMac: string | undefined;
  const modeSettings: ModeSetting[] = [];
  let cardSerial: string | undefined;
  for (const document of documents) {
    const body = document.body;
    if (!body) continue;
    if (stringField(body, "ChassisType") === "Card" || stringField(body, "Id") === "Card1") {
      cardSerial ??= stringField(body, "SerialNumber")?.trim() || undefined;
    }
    if (stringField(body, "Id") === "DPU_SYS_IMAGE")
      sysImageMac ??= macOfGuid(stringField(body, "Version") ?? "");
    forEachString(body, (text, key, pointer) => {
      if (key === "BaseMAC") baseMac ??= canonicalMac(text);
      if (text === "DpuMode" && /mode$/i.test(key)) modeSettings.push({ path: document.path, pointer });
    });
  }
  const mac = baseMac ?? sysImageMac;
  const serial = tokens.find("serial", cardSerial) ?? systemSerial;
  if (!mac || serial === undefined) return undefined;
  return { serial, baseMac: tokens.add("mac", mac), modeSettings };
}

/** The spellings that occur somewhere in the documents (only those are rewritten). */
function spellingsPresent(
  tokens: readonly IdentityToken[],
  documents: readonly ScannedDocument[],
): SpelledToken[] {
  const corpus = documents.map((document) => `${document.path}\n${document.text}`).join("\n");
  const present: SpelledToken[] = [];
  const seen = new Set<string>();
  tokens.forEach((token, index) => {
    for (const spelling of spellingsOf(token.kind)) {
      const text = spellToken(token.kind, token.value, spelling);
      if (seen.has(text) || !corpus.includes(text)) continue;
      seen.add(text);
      present.push({ text, token: index, spelling });
    }
  });
  return present;
}
