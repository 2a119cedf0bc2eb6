import type { ExplorationReport } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { reportMacs } from "./reportMacs.js";

const nic = (mac: string, interfaceType?: "Physical" | "Virtual") => ({
  id: mac,
  mac,
  ...(interfaceType ? { interfaceType } : {}),
});

describe("reportMacs", () => {
  it("lists managers' then systems' MACs, leaving out virtual (VLAN) interfaces that share a parent's MAC", () => {
    const report = {
      managers: [{ ethernetInterfaces: [nic("02:00:00:00:00:01")] }],
      systems: [
        {
          ethernetInterfaces: [
            nic("02:00:00:00:00:10", "Physical"),
            nic("02:00:00:00:00:10", "Virtual"),
            nic("02:00:00:00:00:11"),
          ],
        },
      ],
    } as unknown as ExplorationReport;
    expect(reportMacs(report)).toEqual({
      managers: ["02:00:00:00:00:01"],
      systems: ["02:00:00:00:00:10", "02:00:00:00:00:11"],
      all: ["02:00:00:00:00:01", "02:00:00:00:00:10", "02:00:00:00:00:11"],
    });
  });
});
