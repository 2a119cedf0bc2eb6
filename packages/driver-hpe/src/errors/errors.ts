import { RacksmithError } from "@racksmith/core";

/** No boot option (or OEM boot entry) boots what was asked for; nothing was changed. */
export class BootOptionNotFoundError extends RacksmithError {
  constructor(what: string) {
    super("boot_option_not_found", "FAILED_PRECONDITION", `no boot option for ${what}`, {
      details: { target: what },
    });
  }
}
