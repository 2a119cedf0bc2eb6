import { RacksmithError } from "@racksmith/core";

/** The BMC reports a NIC/DPU mode value this driver does not know; guessing would mis-pair the host. */
export class UnknownNicModeError extends RacksmithError {
  constructor(value: string, source: string) {
    super(
      "nic_mode_unknown",
      "FAILED_PRECONDITION",
      `the BMC reports NIC mode ${JSON.stringify(value)} at ${source}`,
      {
        details: { value, source },
      },
    );
  }
}

/** Neither `Oem.Nvidia.BaseMAC` nor the `DPU_SYS_IMAGE` firmware entry yields the host-facing base MAC. */
export class BaseMacUnavailableError extends RacksmithError {
  constructor(reason: string) {
    super("base_mac_unavailable", "FAILED_PRECONDITION", `the DPU's base MAC is unavailable: ${reason}`, {
      details: { reason },
    });
  }
}

/**
 * Staging the UEFI password failed. The BMC's own message is left out on purpose: a BMC may echo the request,
 * and the request holds both passwords.
 */
export class UefiPasswordChangeError extends RacksmithError {
  constructor(httpStatus: number, messageIds: readonly string[]) {
    super(
      "uefi_password_change_failed",
      "FAILED_PRECONDITION",
      `the BMC refused the UEFI password change (HTTP ${httpStatus}${messageIds.length ? `: ${messageIds.join(", ")}` : ""})`,
      { details: { httpStatus, messageIds } },
    );
  }
}
