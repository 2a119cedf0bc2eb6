import { RacksmithError } from "@racksmith/core";
import type { ExpectedMachineRowResult } from "./contracts.js";

/** One thing wrong with an expected machine: the field and why. */
export interface FieldProblem {
  field: string;
  message: string;
}

export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ");
}

export class ExpectedMachineNotFoundError extends RacksmithError {
  constructor(readonly bmcMac: string) {
    super("expected_machine_not_found", "NOT_FOUND", `no expected machine has BMC MAC ${bmcMac}`, {
      details: { bmcMac },
    });
  }
}

export class ExpectedMachineExistsError extends RacksmithError {
  constructor(readonly bmcMac: string) {
    super("expected_machine_exists", "ALREADY_EXISTS", `an expected machine with BMC MAC ${bmcMac} exists`, {
      details: { bmcMac },
    });
  }
}

/** An expected machine that cannot be stored; `details.field` names the first bad field. */
export class InvalidExpectedMachineError extends RacksmithError {
  constructor(readonly problems: readonly FieldProblem[]) {
    super(
      "invalid_expected_machine",
      "INVALID_ARGUMENT",
      `invalid expected machine: ${describeProblems(problems)}`,
      {
        details: { field: problems[0]?.field, problems: problems.map((problem) => ({ ...problem })) },
      },
    );
  }
}

const REASONS_IN_MESSAGE = 5;

/** A bulk request with bad rows and no `acceptPartial`: nothing was applied; `details.results` has every row. */
export class ExpectedMachinesRejectedError extends RacksmithError {
  constructor(readonly results: readonly ExpectedMachineRowResult[]) {
    const rejected = results.filter((result) => !result.ok);
    const reasons = rejected
      .slice(0, REASONS_IN_MESSAGE)
      .map(
        (result) =>
          `machines[${result.index}]${result.bmcMac ? ` ${result.bmcMac}` : ""}: ${result.error?.message}`,
      );
    const more =
      rejected.length > REASONS_IN_MESSAGE ? `; … ${rejected.length - REASONS_IN_MESSAGE} more` : "";
    super(
      "expected_machines_rejected",
      "INVALID_ARGUMENT",
      `${rejected.length} of ${results.length} expected machines rejected, nothing applied: ${reasons.join("; ")}${more}`,
      { details: { results: results.map((result) => ({ ...result })) } },
    );
  }
}

/** Every address of the underlay pool is leased (or reserved by an expected machine's static address). */
export class DhcpPoolExhaustedError extends RacksmithError {
  constructor(readonly pool: string) {
    super("dhcp_pool_exhausted", "RESOURCE_EXHAUSTED", `no free address left in the underlay pool ${pool}`, {
      details: { pool },
    });
  }
}

/** Concurrent discoveries kept taking the address (or changing the lease) this discovery decided on. */
export class DhcpContendedError extends RacksmithError {
  constructor(
    readonly mac: string,
    readonly attempts: number,
  ) {
    super(
      "dhcp_contended",
      "UNAVAILABLE",
      `the DHCP discovery of ${mac} lost to concurrent discoveries ${attempts} times; try again`,
      { details: { mac, attempts } },
    );
  }
}

/** An expected-machines file that cannot be read; the message names the line (CSV) or the problem (JSON). */
export class ExpectedMachinesFileError extends RacksmithError {
  constructor(
    readonly file: string,
    problem: string,
    readonly line?: number,
  ) {
    super(
      "expected_machines_file_invalid",
      "INVALID_ARGUMENT",
      `${file}: ${line === undefined ? "" : `line ${line}: `}${problem}`,
      { details: { file, problem, ...(line === undefined ? {} : { line }) } },
    );
  }
}
