import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";

/**
 * The probe `probeService` would make of a service root, without a BMC (detection tests): the vendor from
 * `Vendor`, else the first `Oem` key; no `$metadata`; no systems, managers or chassis unless given (an
 * override that is undefined keeps the default).
 */
export function serviceProbeOf(
  serviceRoot: ServiceRoot,
  overrides: Partial<ServiceProbe> = {},
): ServiceProbe {
  const oemKeys = Object.keys(serviceRoot.Oem ?? {});
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return {
    serviceRoot,
    vendor: serviceRoot.Vendor ?? oemKeys[0],
    product: serviceRoot.Product,
    oemKeys,
    metadata: undefined,
    systemIds: [],
    managerIds: [],
    chassisIds: [],
    diagnostics: [],
    ...given,
  };
}
