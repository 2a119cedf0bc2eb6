import type { Kysely } from "kysely";
import type { EngineTables } from "./database.js";
import { UnknownStateError } from "./errors.js";
import type { HandlerContext, Outcome, StateMachine, TaggedState } from "./types.js";

export type StateHandler<S extends TaggedState, O, K extends S["state"]> = (input: {
  id: string;
  state: Extract<S, { state: K }>;
  object: O;
  context: HandlerContext<S>;
}) => Promise<Outcome<S>> | Outcome<S>;

export interface StateMachineDefinition<S extends TaggedState, O> {
  objectType: string;
  load(id: string, db: Kysely<EngineTables>): Promise<O | undefined>;
  /** `load` reads with one statement: no snapshot transaction around it (see StateMachine). */
  loadsInOneStatement?: boolean;
  /** One handler per state tag — the compiler checks that none is missing. */
  handlers: { [K in S["state"]]: StateHandler<S, O, K> };
  /** SLA in ms per state tag, or a function of the whole state (for SLAs that depend on a substate). */
  sla?: Partial<Record<S["state"], number>> | ((state: S) => number | undefined);
  stateLabel?(state: S): string;
  /** Objects with no SLA right now (see StateMachine.slaExempt). */
  slaExempt?: StateMachine<S, O>["slaExempt"];
}

/** Builds a StateMachine that dispatches on the `state` tag. */
export function defineStateMachine<S extends TaggedState, O>(
  definition: StateMachineDefinition<S, O>,
): StateMachine<S, O> {
  const { objectType, handlers, sla } = definition;
  const handlerFor = (tag: string) =>
    Object.hasOwn(handlers, tag)
      ? (handlers[tag as S["state"]] as StateHandler<S, O, S["state"]>)
      : undefined;
  return {
    objectType,
    load: (id, db) => definition.load(id, db),
    async handle(input) {
      const handler = handlerFor(input.state.state);
      if (!handler) throw new UnknownStateError(objectType, input.state.state);
      return handler({ ...input, state: input.state as Extract<S, { state: S["state"] }> });
    },
    sla(state) {
      if (typeof sla === "function") return sla(state);
      const tag = state.state as S["state"];
      return sla && Object.hasOwn(sla, tag) ? sla[tag] : undefined;
    },
    ...(definition.stateLabel ? { stateLabel: definition.stateLabel } : {}),
    ...(definition.slaExempt ? { slaExempt: definition.slaExempt } : {}),
    ...(definition.loadsInOneStatement ? { loadsInOneStatement: true } : {}),
  };
}
