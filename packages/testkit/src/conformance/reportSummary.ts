import { BMC_CAPABILITIES } from "@racksmith/core";
import type { ConformanceReport, ConformanceResult, ConformanceStatus } from "./types.js";

/** What the suite reports on, in its order: its own checks, then every capability. */
export const CONFORMANCE_CHECKS: readonly ConformanceResult["capability"][] = [
  "detect",
  "explore",
  ...BMC_CAPABILITIES,
];

/** Capability (or `detect`/`explore`) → status, in the report's order. */
export function conformanceStatuses(report: ConformanceReport): Record<string, ConformanceStatus> {
  return Object.fromEntries(report.results.map((result) => [result.capability, result.status]));
}

/** The failed checks as `capability: message`, readable in an assertion's diff. */
export function conformanceFailures(report: ConformanceReport): string[] {
  return report.results
    .filter((result) => result.status === "fail")
    .map((result) => `${result.capability}: ${result.message ?? ""}`);
}

/** The statuses of a full run in which everything passes but the named checks, which answer not_supported. */
export function expectedConformanceStatuses(
  notSupported: readonly string[],
): Record<string, ConformanceStatus> {
  return Object.fromEntries(
    CONFORMANCE_CHECKS.map((check) => [check, notSupported.includes(check) ? "not_supported" : "pass"]),
  );
}
