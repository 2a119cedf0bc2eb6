import type { BmcCapability, BmcDriver, BmcDriverDefinition, MachineSetupOptions } from "@racksmith/core";
import type { ServiceProbe } from "@racksmith/core/redfish";
import type { MockupBehavior } from "../mockup/index.js";

/** `pass`: the capability works; `not_supported`: the driver said so honestly; `fail`: anything else. */
export type ConformanceStatus = "pass" | "fail" | "not_supported";

export interface ConformanceResult {
  /** A capability, or one of the suite's own checks (`detect`, `explore`). */
  capability: BmcCapability | "detect" | "explore";
  /** Whether the driver declares the capability (undeclared ones must answer `not_supported`). */
  declared: boolean;
  status: ConformanceStatus;
  /** What was verified, in order, for the report. */
  checks: string[];
  /** Why it failed or is not supported. */
  message?: string;
  durationMs: number;
}

export interface ConformanceReport {
  driver: string;
  mockup: string;
  passed: boolean;
  results: ConformanceResult[];
}

/** What differs legitimately between vendors and cannot be detected from the mockup. */
export interface ConformanceExpectations {
  /** Whether `clearTpm` stages a pending BIOS change (false for Supermicro, which applies it differently). */
  tpmClearLeavesPending?: boolean;
  /** Whether the BMC lists PCIe devices at all (false for a BlueField, which enumerates none). */
  enumeratesPcieDevices?: boolean;
}

/**
 * What a driver package tells the suite about its own mockups: vendor behaviors the mockup server must play
 * out (jobs, OEM pending settings), legitimate vendor differences, and the settings/machine-setup options to
 * use. A package exports it as `conformance` (keyed by driver name) from its `./testing` entry point.
 */
export interface DriverConformanceProfile {
  behaviors?: readonly MockupBehavior[];
  expectations?: ConformanceExpectations;
  machineSetup?: MachineSetupOptions;
  settings?: Readonly<Record<string, unknown>>;
}

export interface ConformanceOptions extends DriverConformanceProfile {
  driver: BmcDriverDefinition;
  /** A DMTF mockup directory, served by a fresh in-process mockup server for this run. */
  mockup: string;
  /** How long a state change (power) may take to show before the check fails (default 5 s). */
  settleTimeoutMs?: number;
  /** Only run these capabilities (default: all). */
  only?: readonly (BmcCapability | "detect" | "explore")[];
  /** Called as each result is known (CLI progress). */
  onResult?: (result: ConformanceResult) => void;
}

/** What every check gets: the driver under test and facts gathered once about the mockup. */
export interface CheckContext {
  driver: BmcDriver;
  definition: BmcDriverDefinition;
  probe: ServiceProbe;
  expectations: ConformanceExpectations;
  settings: Readonly<Record<string, unknown>> | undefined;
  machineSetup: MachineSetupOptions | undefined;
  settleTimeoutMs: number;
  /** Record a verified fact for the report. */
  check(description: string): void;
}
