import { afterEach, describe, expect, it, vi } from "vitest";
import { WakeSignal, withJitter } from "./wakeSignal.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe("WakeSignal", () => {
  it("wakes a waiter on fire, and otherwise after the timeout", async () => {
    vi.useFakeTimers();
    const signal = new WakeSignal();
    const woken = signal.wait(1_000);
    signal.fire();
    expect(await settlesWithin(woken, 0)).toBe(true);
    expect(await settlesWithin(signal.wait(1_000), 999)).toBe(false);
  });

  it("keeps a fire that happens while nobody waits, for the next wait only", async () => {
    vi.useFakeTimers();
    const signal = new WakeSignal();
    signal.fire();
    signal.fire();
    expect(await settlesWithin(signal.wait(1_000), 0)).toBe(true);
    // Consumed: a second wait must block again (otherwise a busy loop spins and starves the event loop).
    expect(await settlesWithin(signal.wait(1_000), 500)).toBe(false);
  });

  it("forgets a pending fire on reset", async () => {
    vi.useFakeTimers();
    const signal = new WakeSignal();
    signal.fire();
    signal.reset();
    expect(await settlesWithin(signal.wait(1_000), 500)).toBe(false);
  });

  it("adds jitter within the given fraction", () => {
    const random = vi.spyOn(Math, "random");
    // Math.random() is in [0, 1): the stretch runs from none to just under the fraction, in whole ms.
    const jitterWith = (draw: number) => {
      random.mockReturnValue(draw);
      return withJitter(300, 1 / 3);
    };
    expect(jitterWith(0)).toBe(300);
    expect(jitterWith(0.5)).toBe(350);
    expect(jitterWith(1 - Number.EPSILON)).toBe(399);
  });
});
