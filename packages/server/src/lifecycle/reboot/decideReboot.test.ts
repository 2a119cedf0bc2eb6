import { describe, expect, it } from "vitest";
import { decideReboot, type RebootInput } from "./decideReboot.js";

const MIN = 60_000;
const entered = new Date("2026-01-01T00:00:00Z");
const at = (minutes: number) => new Date(entered.getTime() + minutes * MIN);
const policy = {
  failureRetryTimeMs: 30 * MIN,
  maxRebootCycles: 15,
  powerOffEveryNthCycle: 4,
  powerDownWaitMs: 2 * MIN,
};

function input(overrides: Partial<RebootInput>): RebootInput {
  return {
    now: at(0),
    enteredAt: entered,
    lastRequest: null,
    policy,
    kick: false,
    dpu: false,
    suppressed: false,
    ...overrides,
  };
}

describe("decideReboot", () => {
  it.each([
    ["kick on the first run", { kick: true }, { kind: "reboot", action: "ForceRestart", cycle: 0 }],
    ["no kick: wait a period", {}, { kind: "none" }],
    [
      "a request from before the state does not count",
      { kick: true, lastRequest: { at: at(-1).toISOString(), action: "ForceRestart" } },
      { kind: "reboot", action: "ForceRestart", cycle: 0 },
    ],
    [
      "kicked recently: wait",
      { now: at(10), kick: true, lastRequest: { at: at(0).toISOString(), action: "ForceRestart" } },
      { kind: "none" },
    ],
    [
      "one period after the last request",
      { now: at(31), lastRequest: { at: at(0).toISOString(), action: "ForceRestart" } },
      { kind: "reboot", action: "ForceRestart", cycle: 1 },
    ],
    [
      "a period after entry without requests",
      { now: at(30) },
      { kind: "reboot", action: "ForceRestart", cycle: 1 },
    ],
    [
      "every 4th cycle powers off",
      { now: at(121), lastRequest: { at: at(90).toISOString(), action: "ForceRestart" } },
      { kind: "reboot", action: "ForceOff", cycle: 4 },
    ],
    [
      "DPUs never power off",
      { now: at(121), dpu: true, lastRequest: { at: at(90).toISOString(), action: "ForceRestart" } },
      { kind: "reboot", action: "ForceRestart", cycle: 4 },
    ],
    [
      "off: wait the power-down time",
      { now: at(121), lastRequest: { at: at(120).toISOString(), action: "ForceOff" } },
      { kind: "none" },
    ],
    [
      "off: on after the power-down time",
      { now: at(122), lastRequest: { at: at(120).toISOString(), action: "ForceOff" } },
      { kind: "reboot", action: "On", cycle: 4 },
    ],
    [
      "give up after 15 cycles",
      { now: at(15 * 30 + 1), lastRequest: { at: at(14 * 30).toISOString(), action: "ForceRestart" } },
      { kind: "giveUp" },
    ],
    ["suppressed by health", { kick: true, suppressed: true }, { kind: "none" }],
  ] as const)("%s", (_name, overrides, expected) => {
    expect(decideReboot(input(overrides as Partial<RebootInput>))).toMatchObject(expected);
  });
});
