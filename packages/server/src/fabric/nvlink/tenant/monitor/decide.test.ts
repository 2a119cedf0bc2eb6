import { describe, expect, it } from "vitest";
import { decideGpu, type GpuAction, type GpuPlacement } from "./decide.js";

const ours = (lp: string): GpuPlacement => ({ kind: "ours", logicalPartitionId: lp, partitionId: `p-${lp}` });
const DEFAULT: GpuPlacement = { kind: "default", partitionId: "p-default" };
const UNKNOWN: GpuPlacement = { kind: "unknown", partitionId: "p-12345" };
const NONE: GpuPlacement = { kind: "none" };

const rows: Array<[string, GpuPlacement, boolean, string | null, boolean, GpuAction]> = [
  // description, placement, hasInstance, desired, desiredUsable, action
  ["known partition, other logical partition", ours("A"), true, "B", true, "remove"],
  ["known partition, no config", ours("A"), true, null, true, "remove"],
  ["known partition, same logical partition", ours("A"), true, "A", true, "none"],
  ["default partition, config present", DEFAULT, true, "A", true, "remove_from_unknown"],
  ["default partition, no config", DEFAULT, true, null, true, "none"],
  ["unknown partition, config present", UNKNOWN, true, "A", true, "remove_from_unknown"],
  ["unknown partition, no config", UNKNOWN, true, null, true, "remove_from_unknown"],
  ["no partition, logical partition set", NONE, true, "A", true, "add"],
  ["no partition, logical partition missing or deleted", NONE, true, "A", false, "skip"],
  ["no partition, no config", NONE, true, null, true, "none"],
  ["instance-less host in a known partition", ours("A"), false, null, true, "remove"],
  ["instance-less host in an unknown partition", UNKNOWN, false, null, true, "remove_from_unknown"],
  ["instance-less host in the default partition", DEFAULT, false, null, true, "none"],
  ["instance-less host in no partition", NONE, false, null, true, "none"],
];

describe("decideGpu (NICo's NvlPartitionMonitor table)", () => {
  it.each(rows)("%s", (_name, placement, hasInstance, desired, desiredUsable, action) => {
    expect(decideGpu({ placement, hasInstance, desired, desiredUsable })).toBe(action);
  });
});
