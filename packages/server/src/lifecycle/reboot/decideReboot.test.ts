import { describe, expect, it } from "vitest";
import type { RebootRequest } from "../tables.js";
import { decideReboot, type RebootInput, retryIntervalMs } from "./decideReboot.js";

const MIN = 60_000;
const entered = new Date("2026-01-01T00:00:00Z");
const at = (minutes: number) => new Date(entered.getTime() + minutes * MIN);
const policy = {
  failureRetryTimeMs: 30 * MIN,
  rebootBackoffFactor: 2,
  maxRebootIntervalMs: 240 * MIN,
  maxRebootCycles: 15,
  powerOffEveryNthCycle: 4,
  powerDownWaitMs: 2 * MIN,
};
const fixed = { ...policy, rebootBackoffFactor: 1 };
const request = (minutes: number, cycle?: number, action: RebootRequest["action"] = "ForceRestart") => ({
  at: at(minutes).toISOString(),
  action,
  ...(cycle === undefined ? {} : { cycle }),
});

function input(overrides: Partial<RebootInput>): RebootInput {
  return {
    now: at(0),
    enteredAt: entered,
    lastRequest: null,
    policy,
    kick: false,
    dpu: false,
    suppressed: false,
    serviceUpSince: at(-1000),
    pausedMs: () => 0,
    overloaded: null,
    ...overrides,
  };
}

describe("decideReboot", () => {
  it.each([
    [
      "kick on the first run",
      { kick: true },
      { kind: "reboot", action: "ForceRestart", cycle: 0, reason: "required" },
    ],
    ["no kick: wait a period", {}, { kind: "none" }],
    [
      "a request from before the state does not count",
      { kick: true, lastRequest: request(-1, 3) },
      { kind: "reboot", action: "ForceRestart", cycle: 0 },
    ],
    ["kicked recently: wait", { now: at(10), kick: true, lastRequest: request(0, 0) }, { kind: "none" }],
    [
      "the first retry a period after the kick",
      { now: at(31), lastRequest: request(0, 0) },
      { kind: "reboot", action: "ForceRestart", cycle: 1, reason: "retry" },
    ],
    ["a period after entry without requests", { now: at(30) }, { kind: "reboot", cycle: 1, reason: "retry" }],
    [
      "a state's own power action (no cycle) starts the wait's cycles",
      { now: at(31), lastRequest: request(0) },
      { kind: "reboot", cycle: 1 },
    ],
    [
      "the second retry waits twice as long",
      { now: at(31 + 59), lastRequest: request(31, 1) },
      { kind: "none" },
    ],
    ["… and then goes", { now: at(31 + 60), lastRequest: request(31, 1) }, { kind: "reboot", cycle: 2 }],
    [
      "the interval stops growing at the maximum",
      { now: at(1240), lastRequest: request(1000, 7) },
      { kind: "reboot", cycle: 8 },
    ],
    [
      "a handler running hours late still takes the next cycle only",
      { now: at(600), lastRequest: request(0, 0) },
      { kind: "reboot", action: "ForceRestart", cycle: 1 },
    ],
    [
      "the deadline counts from the service's start (no report could arrive before)",
      { now: at(40), serviceUpSince: at(20), lastRequest: request(0, 0) },
      { kind: "none", reason: `next reboot at ${at(50).toISOString()}` },
    ],
    [
      "overloaded time does not count",
      { now: at(40), lastRequest: request(0, 0), pausedMs: () => 15 * MIN },
      { kind: "none", reason: expect.stringContaining(`next reboot at ${at(45).toISOString()}`) },
    ],
    [
      "due while overloaded: paused, not rebooted",
      { now: at(31), lastRequest: request(0, 0), overloaded: "database round trip 3000 ms > 2000 ms" },
      { kind: "none", reason: expect.stringContaining("paused while the service is overloaded") },
    ],
    [
      "cycles exhausted while overloaded: paused, not failed",
      { now: at(5000), policy: fixed, lastRequest: request(4900, 14), overloaded: "event loop delay" },
      { kind: "none" },
    ],
    [
      "every 4th cycle powers off",
      { now: at(1000), lastRequest: request(0, 3) },
      { kind: "reboot", action: "ForceOff", cycle: 4 },
    ],
    [
      "DPUs never power off",
      { now: at(1000), dpu: true, lastRequest: request(0, 3) },
      { kind: "reboot", action: "ForceRestart", cycle: 4 },
    ],
    [
      "off: wait the power-down time",
      { now: at(121), lastRequest: request(120, 4, "ForceOff") },
      { kind: "none" },
    ],
    [
      "off: on after the power-down time, even when overloaded",
      { now: at(122), lastRequest: request(120, 4, "ForceOff"), overloaded: "busy" },
      { kind: "reboot", action: "On", cycle: 4, reason: "powerOn" },
    ],
    [
      "give up when the 15th cycle is due",
      { now: at(14 * 30 + 1), policy: fixed, lastRequest: request(13 * 30, 14) },
      { kind: "giveUp" },
    ],
    ["suppressed by health", { kick: true, suppressed: true }, { kind: "none" }],
  ] as const)("%s", (_name, overrides, expected) => {
    expect(decideReboot(input(overrides as Partial<RebootInput>))).toMatchObject(expected);
  });
});

describe("retryIntervalMs", () => {
  it.each([
    [1, 30 * MIN],
    [2, 60 * MIN],
    [3, 120 * MIN],
    [4, 240 * MIN],
    [9, 240 * MIN],
  ])("cycle %i waits %i ms", (cycle, expected) => {
    expect(retryIntervalMs(policy, cycle)).toBe(expected);
  });

  it("a factor of 1 is NICo's fixed period", () => {
    expect([1, 5, 14].map((cycle) => retryIntervalMs(fixed, cycle))).toEqual([30 * MIN, 30 * MIN, 30 * MIN]);
  });
});
