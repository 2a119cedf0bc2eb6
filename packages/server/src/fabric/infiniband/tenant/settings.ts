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

/** Splits the section into the core's keys (checked, errors name the key) and the plugin's config. */
export function splitInfiniBandSection(section: Readonly<Record<string, unknown>>): InfiniBandTenantSettings {
  const { fabric, maxPartitionsPerTenant = 31, allowInsecureFabric = false, ...pluginConfig } = section;
  if (fabric !== undefined && (typeof fabric !== "string" || fabric === ""))
    throw new InvalidArgumentError(`${WHERE}.fabric: must name a registered InfiniBand fabric (e.g. "ufm")`);
  if (
    typeof maxPartitionsPerTenant !== "number" ||
    !Number.isInteger(maxPartitionsPerTenant) ||
    maxPartitionsPerTenant < 1 ||
    maxPartitionsPerTenant > 31
  )
    throw new InvalidArgumentError(`${WHERE}.maxPartitionsPerTenant: must be an integer 1..31`);
  if (typeof allowInsecureFabric !== "boolean")
    throw new InvalidArgumentError(`${WHERE}.allowInsecureFabric: must be true or false`);
  return {
    fabric: fabric as string | undefined,
    maxPartitionsPerTenant,
    allowInsecureFabric,
    pluginConfig,
  };
}
