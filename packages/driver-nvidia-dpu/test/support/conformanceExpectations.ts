import type { ConformanceReport } from "@racksmith/testkit";

/**
 * What the conformance suite must find on a BlueField BMC: everything declared passes except what the hardware
 * does not offer, which answers not_supported — declared but absent on the DPU (card power metering, PCIe
 * enumeration, a writable lockout policy) or not declared at all.
 */
export const EXPECTED_STATUSES: Readonly<Record<string, string>> = {
  detect: "pass",
  explore: "pass",
  power: "pass",
  acPowerCycle: "not_supported",
  bmcReset: "pass",
  bootOnce: "pass",
  bootFirst: "pass",
  bootOrderDpuFirst: "pass",
  bios: "pass",
  biosPending: "pass",
  machineSetup: "pass",
  lockdown: "not_supported",
  serialConsole: "not_supported",
  accounts: "pass",
  passwordPolicy: "not_supported",
  uefiPassword: "pass",
  firmwareInventory: "pass",
  firmwareUpdate: "pass",
  thermal: "pass",
  powerMetrics: "not_supported",
  sensors: "pass",
  systemEventLog: "pass",
  bmcEventLog: "pass",
  secureBoot: "pass",
  tpmClear: "not_supported",
  inventory: "pass",
  drives: "pass",
  dpu: "pass",
};

export function statusesOf(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.results.map((result) => [result.capability, result.status]));
}

/** The report's failures, readable in an assertion message. */
export function failuresOf(report: ConformanceReport): string[] {
  return report.results.filter((r) => r.status === "fail").map((r) => `${r.capability}: ${r.message}`);
}
