import type { DpuMode } from "@racksmith/server";

/**
 * Where a virtual BMC's mockup comes from: `model` (a folder of the vendor package's `mockups/`), the
 * package (`@racksmith/driver-<vendor>` unless named) resolved through `node_modules` like the plugin
 * loader does, or a `mockup` folder path (relative to the scenario file).
 */
export interface MockupSource {
  /** Vendor key: names the driver package by default and keys `credentials` (`dell`, `nvidia-dpu`…). */
  vendor: string;
  model?: string;
  package?: string;
  mockup?: string;
  /**
   * Which `conformance[driver].behaviors` of the package's `./testing` entry to play out (default: its only
   * one).
   */
  driver?: string;
  /** Play out the vendor's mockup behaviors (default true). */
  behaviors?: boolean;
}

/** The DPUs in each host of a group. */
export interface DpuSpec extends Omit<MockupSource, "vendor"> {
  /** Default `nvidia-dpu`. */
  vendor?: string;
  /** DPUs per host (default 1); at most the BlueField cards the host mockup shows. */
  count?: number;
}

/** `count` hosts of one model, each with its DPUs. */
export interface HostGroup extends MockupSource {
  /** Default 1. */
  count?: number;
  /** Omitted: the hosts have no DPU BMC (and their expected machines say `no-dpu`). */
  dpu?: DpuSpec;
  /**
   * The expected machines' DPU mode (default `dpu` with DPUs, else `no-dpu`); `nic` puts the DPUs in NIC
   * mode.
   */
  dpuMode?: DpuMode;
  labels?: Record<string, string>;
  skuId?: string;
  /** Write the driver name into the expected machines (a pinned driver). */
  pinDriver?: boolean;
}

/** A vendor's factory account; without `password` every BMC gets its own (as on a label on the server). */
export interface VendorCredentials {
  username: string;
  password?: string;
  /** The BMC answers 403 PasswordChangeRequired until the factory password is changed. */
  passwordChangeRequired?: boolean;
}

export const ANOMALY_KINDS = [
  "wrongSerial",
  "nicModeDpu",
  "missingDpu",
  "poweredOff",
  "passwordChangeRequired",
  "unauthorized",
  "unreachable",
  "slow",
  "malformedJson",
] as const;
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/**
 * What goes wrong, and on how many hosts (each host gets at most one anomaly):
 * - `wrongSerial`: the expected machine's chassis serial is not the one the BMC reports;
 * - `nicModeDpu`: the host's DPUs report NIC mode while the expected machine says `dpu`;
 * - `missingDpu`: the host shows its BlueField card but no DPU BMC exists;
 * - `poweredOff`: the host starts powered off;
 * - `passwordChangeRequired`: the BMC wants its factory password changed before anything else;
 * - `unauthorized`: the BMC's password is not the factory one registered (every login answers 401);
 * - `unreachable`: every connection is dropped; `slow`: every answer waits `latencyMs` (default 10 s);
 * - `malformedJson`: every answer is truncated JSON.
 * `target: dpu` moves the last five to the host's first DPU.
 */
export interface AnomalySpec {
  count: number;
  target?: "host" | "dpu";
  latencyMs?: number;
}

/** A fleet, as a scenario file (YAML or JSON) describes it. */
export interface FleetScenario {
  /** Makes every generated value and anomaly choice reproducible (default 1). */
  seed?: number | string;
  /** Where BMCs get their addresses until the service's DHCP answers (default 10.100.0.0/16). */
  addressPool?: string;
  credentials?: Record<string, VendorCredentials>;
  hosts: HostGroup[];
  anomalies?: Partial<Record<AnomalyKind, number | AnomalySpec>>;
  /** Every BMC locks an account after `threshold` failed logins in a row, for `durationMs` (default 300 s). */
  lockout?: { threshold: number; durationMs?: number };
}
