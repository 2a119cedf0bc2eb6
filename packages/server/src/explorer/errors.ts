import { RacksmithError } from "@racksmith/core";

/** No BMC endpoint with this address is known (not leased, not a static expected-machine address). */
export class EndpointNotFoundError extends RacksmithError {
  constructor(readonly address: string) {
    super("endpoint_not_found", "NOT_FOUND", `no BMC endpoint at ${address}`, { details: { address } });
  }
}

/** No managed host or DPU has this id. */
export class MachineNotFoundError extends RacksmithError {
  constructor(readonly machineId: string) {
    super("machine_not_found", "NOT_FOUND", `no machine ${machineId}`, { details: { machineId } });
  }
}
