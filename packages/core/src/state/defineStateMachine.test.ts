import { describe, expect, it } from "vitest";
import { silentLogger } from "../logging/index.js";
import { defineStateMachine } from "./defineStateMachine.js";
import { deleted, doNothing, transition, wait } from "./outcomes.js";
import type { HandlerContext } from "./types.js";

type LampState = { state: "off" } | { state: "on"; brightness: number } | { state: "broken" };

const lamp = defineStateMachine<LampState, { id: string }>({
  objectType: "lamp",
  load: async (id) => ({ id }),
  sla: { on: 60_000, broken: 0 },
  stateLabel: (state) => (state.state === "on" ? `on/${state.brightness}` : state.state),
  handlers: {
    off: () => transition({ state: "on", brightness: 1 }),
    // The handler sees its own variant: `brightness` is typed here.
    on: ({ state }) => (state.brightness > 2 ? wait("too bright") : doNothing()),
    broken: async () => deleted(),
  },
});

function run(state: LampState) {
  const context: HandlerContext<LampState> = {
    id: "l1",
    state,
    version: 1,
    enteredAt: new Date(0),
    timeInStateMs: 0,
    signal: new AbortController().signal,
    logger: silentLogger,
    defer: () => {},
    enqueue: () => {},
  };
  return lamp.handle({ id: "l1", state, object: { id: "l1" }, context });
}

describe("defineStateMachine", () => {
  it("dispatches on the state tag", async () => {
    expect(await run({ state: "off" })).toEqual({ kind: "transition", next: { state: "on", brightness: 1 } });
    expect(await run({ state: "on", brightness: 3 })).toEqual({ kind: "wait", reason: "too bright" });
    expect(await run({ state: "on", brightness: 1 })).toEqual({ kind: "doNothing" });
    expect(await run({ state: "broken" })).toEqual({ kind: "deleted" });
  });

  it("fails with a typed error for a state it has no handler for", async () => {
    await expect(run({ state: "melted" } as unknown as LampState)).rejects.toMatchObject({
      code: "state_unknown",
      message: 'lamp has no handler for state "melted"',
    });
    // Inherited names are not handlers.
    await expect(run({ state: "toString" } as unknown as LampState)).rejects.toMatchObject({
      code: "state_unknown",
    });
  });

  it("gives SLAs per tag (from a map or a function) and labels", () => {
    expect(lamp.sla?.({ state: "on", brightness: 1 })).toBe(60_000);
    expect(lamp.sla?.({ state: "broken" })).toBe(0);
    expect(lamp.sla?.({ state: "off" })).toBeUndefined();
    expect(lamp.stateLabel?.({ state: "on", brightness: 2 })).toBe("on/2");
    const bySubstate = defineStateMachine<LampState, null>({
      objectType: "dimmer",
      load: async () => null,
      sla: (state) => (state.state === "on" ? state.brightness * 1_000 : undefined),
      handlers: { off: doNothing, on: doNothing, broken: doNothing },
    });
    expect(bySubstate.sla?.({ state: "on", brightness: 3 })).toBe(3_000);
    expect(bySubstate.stateLabel).toBeUndefined();
  });
});
