import { RacksmithError, type RacksmithErrorOptions } from "@racksmith/core";

/** BIOS attribute names that match no attribute of this BMC, even ignoring the firmware's key suffixes. */
export class BiosAttributeUnknownError extends RacksmithError {
  constructor(readonly names: readonly string[]) {
    super(
      "bios_attribute_unknown",
      "INVALID_ARGUMENT",
      `this BMC has no BIOS attribute named ${names.map((n) => JSON.stringify(n)).join(", ")} ` +
        "(names are matched exactly, then without the firmware's _XXXX / #XXXX suffix and punctuation)",
      { details: { names } },
    );
  }
}

/** The BMC refused a change because System Lockdown is on; lockdown must be disabled first. */
export class SystemLockdownActiveError extends RacksmithError {
  constructor(operation: string, options: RacksmithErrorOptions = {}) {
    super(
      "system_lockdown_enabled",
      "FAILED_PRECONDITION",
      `${operation} was refused: the BMC is in System Lockdown; disable lockdown first`,
      { ...options, details: { operation, ...options.details } },
    );
  }
}

/** Serial-over-LAN is not fully on, and Supermicro BMCs do not let Redfish turn it on. */
export class SerialConsoleNotConfigurableError extends RacksmithError {
  constructor(status: string) {
    super(
      "serial_console_not_configurable",
      "FAILED_PRECONDITION",
      `the serial console is not fully enabled (${status}) and Supermicro exposes its settings read-only; ` +
        "enable SSH serial console / SOL in the BMC web UI or with the Supermicro tools",
      { details: { status } },
    );
  }
}

/** Another firmware update is running; the BMC accepts one at a time. */
export class FirmwareUpdateBusyError extends RacksmithError {
  constructor(options: RacksmithErrorOptions = {}) {
    super(
      "firmware_update_busy",
      "UNAVAILABLE",
      "the BMC is already updating firmware; wait for that update to finish and retry",
      options,
    );
  }
}
