/** Planning a fleet: virtual BMCs with identities, addresses and anomalies, and what to register for them. */
export { AddressPool } from "./addressPool.js";
export { expectedMachinesCsv } from "./expectedMachinesCsv.js";
export { type PlanFleetOptions, planFleet } from "./planFleet.js";
export type { FleetAnomaly, FleetPlan, VirtualBmcKind, VirtualBmcPlan } from "./types.js";
export { DEFAULT_VENDOR_CREDENTIALS } from "./vendorCredentials.js";
