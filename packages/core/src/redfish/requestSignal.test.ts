import { afterEach, describe, expect, it, vi } from "vitest";
import { requestSignal } from "./requestSignal.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("requestSignal", () => {
  it("aborts with a TimeoutError once the timeout passes", () => {
    vi.useFakeTimers();
    const { signal } = requestSignal(1_000, undefined);
    vi.advanceTimersByTime(999);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe("TimeoutError");
  });

  it("aborts with the parent's reason, at once when the parent already aborted", () => {
    const parent = new AbortController();
    const { signal } = requestSignal(60_000, parent.signal);
    parent.abort(new Error("deadline"));
    expect((signal.reason as Error).message).toBe("deadline");
    expect((requestSignal(60_000, parent.signal).signal.reason as Error).message).toBe("deadline");
  });

  it("once done, neither the timeout nor the parent aborts it", () => {
    vi.useFakeTimers();
    const parent = new AbortController();
    const ending = requestSignal(1_000, parent.signal);
    ending.done();
    vi.advanceTimersByTime(5_000);
    parent.abort(new Error("late"));
    expect(ending.signal.aborted).toBe(false);
  });
});
