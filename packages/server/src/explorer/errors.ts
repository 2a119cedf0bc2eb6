import { RacksmithError } from "@racksmith/core";
import { excerpt } from "../api/index.js";

/** No BMC endpoint with this address is known (not leased, not a static expected-machine address). */
export class EndpointNotFoundError extends RacksmithError {
  constructor(readonly address: string) {
    // A URL with an IPv6 host runs past the default excerpt: quote a real address whole.
    super("endpoint_not_found", "NOT_FOUND", `no BMC endpoint at ${excerpt(address, 128)}`, {
      details: { address },
    });
  }
}

/** No managed host or DPU has this id. */
export class MachineNotFoundError extends RacksmithError {
  constructor(readonly machineId: string) {
    super("machine_not_found", "NOT_FOUND", `no machine ${excerpt(machineId)}`, { details: { machineId } });
  }
}
