import { RacksmithError } from "@racksmith/core";

/** One thing wrong with a scenario, at a key path (`hosts[2].count`). */
export interface ScenarioProblem {
  readonly key: string;
  readonly problem: string;
}

/** A scenario (file or object) is invalid; the message names every bad key. */
export class FleetScenarioError extends RacksmithError {
  readonly problems: readonly ScenarioProblem[];

  constructor(problems: readonly ScenarioProblem[], file?: string) {
    const lines = problems.map(({ key, problem }) => `${key}: ${problem}`).join("; ");
    super("fleet_scenario_invalid", "INVALID_ARGUMENT", `${file ? `${file}: ` : ""}${lines}`, {
      details: { problems, ...(file ? { file } : {}) },
    });
    this.problems = problems;
  }

  /** The first bad key. */
  get key(): string {
    return this.problems[0]?.key ?? "";
  }
}

/** A mockup a scenario names cannot be found or used (no such package or folder, no DPU base MAC…). */
export class FleetMockupError extends RacksmithError {
  constructor(
    readonly key: string,
    problem: string,
    options: { cause?: unknown } = {},
  ) {
    super("fleet_mockup_unavailable", "NOT_FOUND", `${key}: ${problem}`, {
      details: { key },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }
}

/** The fleet ran out of unique values (MACs per vendor OUI, addresses in the pool). */
export class FleetCapacityError extends RacksmithError {
  constructor(what: string) {
    super("fleet_capacity_exceeded", "RESOURCE_EXHAUSTED", `the fleet ran out of ${what}`);
  }
}

/** The fleet's listener could not start. */
export class FleetStartError extends RacksmithError {
  constructor(address: string, reason: string, cause: unknown) {
    super("fleet_start_failed", "UNAVAILABLE", `fleet server cannot listen on ${address}: ${reason}`, {
      cause,
      details: { address },
    });
  }
}

/** No virtual BMC has this MAC. */
export class FleetBmcNotFoundError extends RacksmithError {
  constructor(mac: string) {
    super("fleet_bmc_not_found", "NOT_FOUND", `no virtual BMC has the MAC ${mac}`, { details: { mac } });
  }
}
