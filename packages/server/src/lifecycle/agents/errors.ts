import { RacksmithError } from "@racksmith/core";
import { excerpt, quoted } from "../../api/index.js";

/** DiscoverMachine could not tell which managed host or DPU the reporting hardware is. */
export class MachineNotIdentifiedError extends RacksmithError {
  constructor(
    readonly serial: string,
    readonly macs: readonly string[],
  ) {
    super(
      "machine_not_identified",
      "NOT_FOUND",
      `no managed host or DPU has serial ${quoted(serial)}, and none of the ${macs.length} NIC MAC(s) reported is a DPU's host-facing MAC`,
      { details: { serial, macs: [...macs] } },
    );
  }
}

/** The DPU agent named a machine that is no DPU of this site (the agent then isolates its host). */
export class DpuNotFoundError extends RacksmithError {
  constructor(
    readonly dpuId: string,
    reason = "no DPU has this id",
  ) {
    super("dpu_not_found", "NOT_FOUND", `unknown DPU ${excerpt(dpuId)}: ${reason}`, { details: { dpuId } });
  }
}
