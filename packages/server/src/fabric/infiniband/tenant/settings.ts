import { InvalidArgumentError } from "@racksmith/core";

/** Keys of `fabrics.infiniband` the core reads itself; every other key is the fabric plugin's config. */
export interface InfiniBandTenantSettings {
  /** The registered fabric definition (default: the only one loaded). */
  fabric: string | undefined;
  /** NICo's `max_partition_per_tenant` (1..31, default 31). */
  maxPartitionsPerTenant: number;
  /** NICo's `allow_insecure`: the operator accepts insecure SM settings (only a metric; nothing blocks). */
  allowInsecureFabric: boolean;
  /** The section without the core's keys, for the fabric's `create`. */
  pluginConfig: Record<string, unknown>;
}

const WHERE = "fabrics.infiniband";

/** The keys of the section the core reads itself (the plugin never sees them). */
export const INFINIBAND_CORE_KEYS: readonly string[] = [
  "fabric",
  "maxPartitionsPerTenant",
  "allowInsecureFabric",
];

/** One problem per bad core key of the section, each naming the key. */
export function infiniBandSectionProblems(section: Readonly<Record<string, unknown>>): string[] {
  const { fabric, maxPartitionsPerTenant = 31, allowInsecureFabric = false } = section;
  const problems: string[] = [];
  if (fabric !== undefined && (typeof fabric !== "string" || fabric === ""))
    problems.push(`${WHERE}.fabric: must name a registered InfiniBand fabric (e.g. "ufm")`);
  if (
    typeof maxPartitionsPerTenant !== "number" ||
    !Number.isInteger(maxPartitionsPerTenant) ||
    maxPartitionsPerTenant < 1 ||
    maxPartitionsPerTenant > 31
  )
    problems.push(`${WHERE}.maxPartitionsPerTenant: must be an integer 1..31`);
  if (typeof allowInsecureFabric !== "boolean")
    problems.push(`${WHERE}.allowInsecureFabric: must be true or false`);
  return problems;
}

/** Splits the section into the core's keys (checked, errors name every bad key) and the plugin's config. */
export function splitInfiniBandSection(section: Readonly<Record<string, unknown>>): InfiniBandTenantSettings {
  const problems = infiniBandSectionProblems(section);
  if (problems.length > 0) throw new InvalidArgumentError(problems.join("; "));
  const { fabric, maxPartitionsPerTenant = 31, allowInsecureFabric = false, ...pluginConfig } = section;
  return {
    fabric: fabric as string | undefined,
    maxPartitionsPerTenant: maxPartitionsPerTenant as number,
    allowInsecureFabric: allowInsecureFabric as boolean,
    pluginConfig,
  };
}
