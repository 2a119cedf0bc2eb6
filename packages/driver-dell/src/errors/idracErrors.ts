import { RacksmithError } from "@racksmith/core";

/**
 * The iDRAC keeps jobs it will not drop (a job is running), or refused a change because a configuration job
 * is already committed for the next reboot. Nothing was changed; retry after that job ran or was deleted.
 */
export class JobQueueBusyError extends RacksmithError {
  constructor(
    message: string,
    details: { jobIds?: readonly string[]; messageIds?: readonly string[] } = {},
    cause?: unknown,
  ) {
    super("bmc_job_queue_busy", "FAILED_PRECONDITION", message, { details: { ...details }, cause });
  }
}

/** System Lockdown (or the BIOS lockdown it comes with) forbids the change; unlock the BMC first. */
export class LockedDownError extends RacksmithError {
  constructor(operation: string, hint = "disable lockdown (setLockdown(false)) and retry", cause?: unknown) {
    super(
      "bmc_locked_down",
      "FAILED_PRECONDITION",
      `${operation} was refused: the iDRAC is locked down; ${hint}`,
      {
        details: { operation },
        cause,
      },
    );
  }
}

/** No network device function of the host has the MAC given as the DPU's host-facing port. */
export class DpuNicNotFoundError extends RacksmithError {
  constructor(mac: string, seen: readonly string[]) {
    super(
      "dpu_nic_not_found",
      "NOT_FOUND",
      `no network device function with MAC ${mac} on this host${seen.length ? ` (MACs seen: ${seen.join(", ")})` : ""}`,
      { details: { mac, seen: [...seen] } },
    );
  }
}

/** The job is in neither of the iDRAC's job collections (deleted by a queue clear, or never existed). */
export class JobNotFoundError extends RacksmithError {
  constructor(id: string, path: string) {
    super("job_not_found", "NOT_FOUND", `the iDRAC has no job ${id} (looked at ${path})`, {
      details: { id, path },
    });
  }
}

/** The iDRAC accepted a request that should create a job but named none. */
export class JobNotCreatedError extends RacksmithError {
  constructor(operation: string, path: string) {
    super(
      "no_job",
      "INTERNAL",
      `${operation}: the iDRAC accepted POST ${path} but returned no job Location`,
      {
        details: { operation, path },
      },
    );
  }
}

/** iDRAC has a fixed table of 16 accounts; every usable slot holds a user. */
export class AccountSlotsFullError extends RacksmithError {
  constructor(slots: number) {
    super(
      "account_slots_full",
      "RESOURCE_EXHAUSTED",
      `all ${slots} iDRAC account slots are in use; delete one first`,
      {
        details: { slots },
      },
    );
  }
}

export class AccountExistsError extends RacksmithError {
  constructor(userName: string) {
    super(
      "account_exists",
      "ALREADY_EXISTS",
      `a BMC account named ${JSON.stringify(userName)} already exists`,
      {
        details: { userName },
      },
    );
  }
}

/** A BIOS attribute the operation needs is read-only right now (it depends on a pending change or a reboot). */
export class SettingReadOnlyError extends RacksmithError {
  constructor(attribute: string, hint: string, cause?: unknown) {
    super(
      "bmc_setting_read_only",
      "FAILED_PRECONDITION",
      `the BIOS refused ${attribute} as read-only; ${hint}`,
      {
        details: { attribute },
        cause,
      },
    );
  }
}
