import { describe, expect, it } from "vitest";
import { RacksmithError } from "../../errors/index.js";
import {
  InfiniBandFabricDisabledError,
  InfiniBandFabricError,
  InfiniBandFabricNotFoundError,
  InfiniBandFabricUnavailableError,
} from "../infiniband/errors.js";
import { NvLinkFabricError, NvLinkFabricTimeoutError } from "../nvlink/errors.js";

describe("fabric error families", () => {
  it.each([
    [
      new InfiniBandFabricUnavailableError("ufm", "refused"),
      "InfiniBandFabricUnavailableError",
      "fabric_unavailable",
      "UNAVAILABLE",
      "InfiniBand fabric ufm: refused",
    ],
    [
      new InfiniBandFabricNotFoundError("ufm", "partition", "0x100"),
      "InfiniBandFabricNotFoundError",
      "fabric_not_found",
      "NOT_FOUND",
      "InfiniBand fabric ufm: partition 0x100 not found",
    ],
    [
      new NvLinkFabricTimeoutError("nmxm", "slow"),
      "NvLinkFabricTimeoutError",
      "fabric_timeout",
      "DEADLINE_EXCEEDED",
      "NVLink fabric nmxm: slow",
    ],
  ])("%s has its own name, code, status and message", (error, name, code, status, message) => {
    expect(error).toBeInstanceOf(RacksmithError);
    expect(error).toMatchObject({ name, code, status, message });
  });

  it("keeps the two families apart and names the fabric", () => {
    const ib = new InfiniBandFabricUnavailableError("ufm", "down");
    expect(ib).toBeInstanceOf(InfiniBandFabricError);
    expect(ib).not.toBeInstanceOf(NvLinkFabricError);
    expect(ib.fabric).toBe("ufm");
    expect(ib.details).toMatchObject({ fabric: "ufm" });
    expect(new InfiniBandFabricDisabledError("bindGuids").message).toMatch(
      /bindGuids: InfiniBand partitioning is disabled \(configure fabrics\.infiniband and load a fabric plugin such as @racksmith\/fabric-ufm\)/,
    );
  });
});
