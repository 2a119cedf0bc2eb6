import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { OverloadHistory } from "./overloadHistory.js";
import { RebootGovernor } from "./rebootGovernor.js";

const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1_000);
const caps = { maxRebootsPerMinute: 3, maxRebootsInFlight: 0, rebootSettleMs: 60_000 };

describe("RebootGovernor", () => {
  it("holds reboots beyond the cap, lets them go when the minute has room, and counts what it did", async () => {
    const governor = new RebootGovernor(caps, new OverloadHistory(), () => t(0));
    const registry = new Registry();
    governor.bindMetrics(registry);
    expect(governor.admit("a", "required", t(1))).toBeNull();
    expect(governor.admit("b", "required", t(2))).toBeNull();
    expect(governor.admit("c", "retry", t(3))).toBeNull();
    expect(governor.admit("d", "retry", t(4))).toBe("site-wide cap of 3 reboots per minute reached");
    // Powering on the end of a power cycle is never held.
    expect(governor.admit("e", "powerOn", t(5))).toBeNull();
    expect(governor.stats(t(5))).toEqual({
      required: 2,
      retry: 1,
      powerOn: 1,
      held: 1,
      holding: 1,
      lastMinute: 3,
      inFlight: 3,
      maxRetriesPerMachine: 1,
    });
    expect(governor.admit("d", "retry", t(62))).toBeNull();
    expect(governor.admit("d", "retry", t(63))).toBeNull();
    expect(governor.stats(t(63))).toMatchObject({ retry: 3, holding: 0, maxRetriesPerMachine: 2 });
    const text = await registry.metrics();
    expect(text).toContain('racksmith_lifecycle_reboots_total{kind="held"} 1');
    expect(text).toContain('racksmith_lifecycle_reboots_total{kind="retry"} 3');
    expect(text).toContain('racksmith_lifecycle_reboot_status{figure="max_retries_per_machine"} 2');
  });

  it("starts with the reboots ordered before it (seeded from the database)", () => {
    const governor = new RebootGovernor(caps, new OverloadHistory(), () => t(100));
    governor.seed([t(20), t(50), t(70), t(90)]);
    expect(governor.admit("a", "retry", t(100))).toBe("site-wide cap of 3 reboots per minute reached");
    expect(governor.admit("a", "retry", t(111))).toBeNull();
  });

  it("reports the load history's verdict and paused time", () => {
    const history = new OverloadHistory();
    const governor = new RebootGovernor(caps, history);
    history.set("event loop delay 1500 ms > 1000 ms", t(10).getTime());
    expect(governor.overloaded()).toBe("event loop delay 1500 ms > 1000 ms");
    history.set(null, t(25).getTime());
    expect(governor.pausedMs(t(0), t(30))).toBe(15_000);
  });
});
