import { describe, expect, it } from "vitest";
import { parseInstanceConfig } from "./instanceConfig.js";

const both = new Set(["infiniband", "nvlink"]);

describe("fabric sections of the instance config", () => {
  it("accepts infiniband and nvlink sections while their fabric is configured, with defaults", () => {
    expect(
      parseInstanceConfig(
        {
          infiniband: { interfaces: [{ device: "MT2910 Family [ConnectX-7]", partitionId: "ib-1" }] },
          nvlink: { gpus: [{ deviceInstance: 3, logicalPartitionId: "nvl-1" }] },
        },
        "config",
        both,
      ),
    ).toEqual({
      network: { interfaces: [] },
      infiniband: {
        interfaces: [
          {
            device: "MT2910 Family [ConnectX-7]",
            deviceInstance: 0,
            virtualFunction: null,
            partitionId: "ib-1",
          },
        ],
      },
      nvlink: { gpus: [{ deviceInstance: 3, logicalPartitionId: "nvl-1" }] },
    });
  });

  it.each([
    [
      { infiniband: { interfaces: [] } },
      new Set<string>(),
      /config\.infiniband: no InfiniBand fabric is configured \(fabrics\.infiniband\)/,
    ],
    [{ nvlink: { gpus: [] } }, new Set(["infiniband"]), /config\.nvlink: no NVLink fabric is configured/],
    [{ ethernet: {} }, both, /config\.ethernet: unknown section/],
    [{ infiniband: [] }, both, /config\.infiniband: must be an object/],
    [{ infiniband: { interfaces: {} } }, both, /config\.infiniband\.interfaces: must be an array/],
    [
      { infiniband: { interfaces: [{ partitionId: "p" }] } },
      both,
      /interfaces\[0\]\.device: must name the HCA model/,
    ],
    [
      { infiniband: { interfaces: [{ device: "d", deviceInstance: -1, partitionId: "p" }] } },
      both,
      /interfaces\[0\]\.deviceInstance: -1 is not a non-negative integer/,
    ],
    [
      { infiniband: { interfaces: [{ device: "d", virtualFunction: 1.5, partitionId: "p" }] } },
      both,
      /interfaces\[0\]\.virtualFunction: 1\.5 is not a non-negative integer/,
    ],
    [
      { infiniband: { interfaces: [{ device: "d", partitionId: " " }] } },
      both,
      /interfaces\[0\]\.partitionId: must be a non-empty id/,
    ],
    [
      {
        infiniband: {
          interfaces: [
            { device: "d", partitionId: "a" },
            { device: "d", deviceInstance: 0, partitionId: "b" },
          ],
        },
      },
      both,
      /interfaces\[1\]: this port .* is configured twice/,
    ],
    [
      { nvlink: { gpus: [{ logicalPartitionId: "x" }] } },
      both,
      /gpus\[0\]\.deviceInstance: undefined is not a non-negative integer/,
    ],
    [
      {
        nvlink: {
          gpus: [
            { deviceInstance: 1, logicalPartitionId: "x" },
            { deviceInstance: 1, logicalPartitionId: "y" },
          ],
        },
      },
      both,
      /gpus\[1\]\.deviceInstance: GPU 1 is configured twice/,
    ],
  ])("refuses %j (fabrics %o)", (config, fabrics, message) => {
    expect(() => parseInstanceConfig(config, "config", fabrics)).toThrow(message);
  });
});
