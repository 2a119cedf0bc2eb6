import { XMLParser } from "fast-xml-parser";

/** What a BMC's `$metadata` document says it publishes. */
export interface ServiceMetadata {
  /** Every schema namespace included, versioned ones collapsed to their base (`ComputerSystem`). */
  namespaces: string[];
  /** Namespaces that belong to a vendor (`DellAttributes`, `NvidiaComputerSystem`, `SmcFixedBootOrder`, …). */
  oemNamespaces: string[];
  /** Vendor prefixes seen in `oemNamespaces` (`Dell`, `Nvidia`, `Smc`, …). */
  oemPrefixes: string[];
}

const OEM_PREFIXES = [
  "Oem",
  "Dell",
  "Hpe",
  "HPE",
  "Hp",
  "Lenovo",
  "Smc",
  "Supermicro",
  "Nvidia",
  "NVIDIA",
  "Ami",
  "AMI",
  "OpenBMC",
  "Intel",
  "Cisco",
  "Fujitsu",
  "Inspur",
  "Huawei",
  "Gigabyte",
  "Quanta",
  "Wiwynn",
  "Insyde",
  "Ibm",
  "IBM",
  "Asrock",
];
// Case-sensitive on purpose: the prefix must be followed by the next word's capital (`SmcFixed…`, not `Smcx`).
const OEM_PATTERN = new RegExp(`^(${OEM_PREFIXES.join("|")})(?=[A-Z_]|$)`);

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", removeNSPrefix: true });

/** Parses a `$metadata` CSDL document; returns undefined when it is not one. */
export function parseServiceMetadata(xml: string): ServiceMetadata | undefined {
  let document: unknown;
  try {
    document = parser.parse(xml);
  } catch {
    return undefined;
  }
  const edmx = (document as { Edmx?: Record<string, unknown> } | undefined)?.Edmx;
  if (!edmx) return undefined;
  const names = new Set<string>();
  for (const reference of asArray(edmx.Reference)) {
    for (const include of asArray((reference as Record<string, unknown>).Include)) {
      const namespace = (include as Record<string, unknown>)["@Namespace"];
      if (typeof namespace === "string") names.add(namespace.split(".")[0] ?? namespace);
    }
  }
  const namespaces = [...names].sort();
  const oemNamespaces = namespaces.filter((n) => OEM_PATTERN.test(n));
  const oemPrefixes = [...new Set(oemNamespaces.map((n) => OEM_PATTERN.exec(n)?.[1] ?? n))].sort();
  return { namespaces, oemNamespaces, oemPrefixes };
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
