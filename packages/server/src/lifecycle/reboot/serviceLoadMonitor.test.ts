import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OverloadHistory } from "./overloadHistory.js";
import { ServiceLoadMonitor } from "./serviceLoadMonitor.js";

describe("ServiceLoadMonitor", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it("marks the service overloaded while the database answers slowly, and calm again after a few quick answers", async () => {
    const history = new OverloadHistory();
    let answer: (() => void) | undefined;
    let slow = false;
    const probe = () => (slow ? new Promise<void>((resolve) => (answer = resolve)) : Promise.resolve());
    const monitor = new ServiceLoadMonitor({
      probe,
      thresholds: { databaseLatencyMs: 2_000, eventLoopDelayMs: 0 },
      history,
    });
    monitor.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(history.current).toBeNull();

    slow = true;
    await vi.advanceTimersByTimeAsync(1_000); // the next sample starts its probe
    await vi.advanceTimersByTimeAsync(2_001); // still no answer past the threshold
    expect(history.current).toMatch(/^database round trip 200\d ms > 2000 ms$/);
    slow = false;
    answer?.();
    // Three quick answers in a row before the timers run again.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(history.current).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(history.current).toBeNull();
    expect(history.pausedMs(new Date(0), new Date(Date.now()))).toBeGreaterThanOrEqual(2_000);
    monitor.stop();
  });

  it("counts how late its own timer fires as the event loop's delay", async () => {
    const history = new OverloadHistory();
    let now = 0;
    const monitor = new ServiceLoadMonitor({
      probe: async () => undefined,
      thresholds: { databaseLatencyMs: 0, eventLoopDelayMs: 1_000 },
      history,
      now: () => now,
    });
    monitor.start();
    // The timer fires after 1 s of fake time while the monitor's clock says 2.5 s passed: 1.5 s late.
    now = 2_500;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(history.current).toBe("event loop delay 1500 ms > 1000 ms");
    monitor.stop();
  });
});
