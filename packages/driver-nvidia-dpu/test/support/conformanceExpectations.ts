import { expectedConformanceStatuses } from "@racksmith/testkit";

/**
 * What the conformance suite must find on a BlueField BMC: everything declared passes except what the hardware
 * does not offer, which answers not_supported — declared but absent on the DPU (card power metering, PCIe
 * enumeration, a writable lockout policy) or not declared at all.
 */
export const EXPECTED_STATUSES: Readonly<Record<string, string>> = expectedConformanceStatuses([
  "acPowerCycle",
  "lockdown",
  "serialConsole",
  "passwordPolicy",
  "powerMetrics",
  "tpmClear",
]);
