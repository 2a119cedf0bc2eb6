import { RacksmithError } from "@racksmith/core";
import { excerpt, quoted } from "../../api/index.js";

/** `removeOverride` of a source the machine has no override from. */
export class HealthOverrideNotFoundError extends RacksmithError {
  constructor(
    readonly machineId: string,
    readonly source: string,
  ) {
    super(
      "health_override_not_found",
      "NOT_FOUND",
      `machine ${excerpt(machineId)} has no health override from source ${quoted(source)}`,
      { details: { machineId, source } },
    );
  }
}

/** A replace override is per host: it replaces the host's whole aggregate, which a DPU does not have. */
export class DpuReplaceOverrideError extends RacksmithError {
  constructor(
    readonly machineId: string,
    readonly hostId: string,
  ) {
    super(
      "dpu_replace_override",
      "INVALID_ARGUMENT",
      `machine ${machineId} is a DPU: a replace override applies to a host (use ${hostId}) or use mode merge`,
      { details: { machineId, hostId } },
    );
  }
}
