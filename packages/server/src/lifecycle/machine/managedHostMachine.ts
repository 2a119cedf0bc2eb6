import { defineStateMachine, doNothing, type StateMachine, transition, wait } from "@racksmith/core/engine";
import { HEALTH_CLASSIFICATIONS } from "@racksmith/core/health";
import { type Kysely, sql } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/index.js";
import type { BmcAccess } from "../bmc/bmcSession.js";
import { handleAssigned } from "../handlers/assigned.js";
import { handleBomValidating } from "../handlers/bomValidating.js";
import { handleCreated } from "../handlers/created.js";
import { handleDiscovered } from "../handlers/discovered.js";
import { handleDpuDiscovering } from "../handlers/dpuDiscovering.js";
import { handleDpuInit } from "../handlers/dpuInit.js";
import { handleForceDeletion } from "../handlers/forceDeletion.js";
import { handleHostInit } from "../handlers/hostInit.js";
import { handleReady } from "../handlers/ready.js";
import { handleValidation } from "../handlers/validation.js";
import { handleWaitingForCleanup } from "../handlers/waitingForCleanup.js";
import { RebootHeldError } from "../reboot/index.js";
import { BOM_OPERATOR_WAITS, type ManagedHostState, managedHostStateLabel } from "../states.js";
import { loadManagedHost, type ManagedHostSnapshot } from "./snapshot.js";
import { type HostOutcome, type LifecycleDeps, Step } from "./step.js";

type Handler<K extends ManagedHostState["state"]> = (
  step: Step,
  state: Extract<ManagedHostState, { state: K }>,
) => Promise<HostOutcome> | HostOutcome;

/**
 * The managed-host lifecycle on the state engine. Every run opens the BMC session it needs and closes it; a
 * force-delete intent beats every state; Failed waits for an operator.
 */
export function managedHostLifecycle(
  deps: LifecycleDeps & { bmcAccess: BmcAccess },
): StateMachine<ManagedHostState, ManagedHostSnapshot> {
  const run =
    <K extends ManagedHostState["state"]>(handler: Handler<K>) =>
    async ({
      state,
      object,
      context,
    }: {
      state: Extract<ManagedHostState, { state: K }>;
      object: ManagedHostSnapshot;
      context: Parameters<StateMachine<ManagedHostState, ManagedHostSnapshot>["handle"]>[0]["context"];
    }): Promise<HostOutcome> => {
      if (object.forceDeleteRequestedAt && state.state !== "forceDeletion") {
        return transition<ManagedHostState>({ state: "forceDeletion" });
      }
      const session = deps.bmcAccess(context.signal);
      try {
        return await handler(new Step(object, context, deps, (machine) => session.of(machine)), state);
      } catch (error) {
        if (error instanceof RebootHeldError) return wait(error.message);
        throw error;
      } finally {
        await session.close();
      }
    };
  return defineStateMachine<ManagedHostState, ManagedHostSnapshot>({
    objectType: MANAGED_HOST_OBJECT_TYPE,
    load: loadManagedHost,
    loadsInOneStatement: true,
    handlers: {
      created: run((step) => handleCreated(step)),
      dpuDiscovering: run(handleDpuDiscovering),
      dpuInit: run(handleDpuInit),
      hostInit: run(handleHostInit),
      bomValidating: run(handleBomValidating),
      validation: run(handleValidation),
      discovered: run(handleDiscovered),
      ready: run((step) => handleReady(step)),
      assigned: run(handleAssigned),
      waitingForCleanup: run(handleWaitingForCleanup),
      failed: run(() => doNothing()),
      forceDeletion: run((step) => handleForceDeletion(step)),
    },
    sla: (state) =>
      state.state === "bomValidating" && BOM_OPERATOR_WAITS.has(state.bomState.step)
        ? undefined
        : deps.config.slaMs[state.state],
    slaExempt: slaExemptHosts,
    stateLabel: managedHostStateLabel,
  });
}

/** Hosts whose stored aggregate health carries ExcludeFromStateMachineSla (among `ids`, or all). */
async function slaExemptHosts(
  db: Kysely<RacksmithDatabase>,
  ids?: readonly string[],
): Promise<ReadonlySet<string>> {
  let query = db
    .selectFrom("machine_health")
    .select("machine_id")
    .where(
      sql<boolean>`aggregate -> 'alerts' @> ${JSON.stringify([{ classifications: [HEALTH_CLASSIFICATIONS.excludeFromStateMachineSla] }])}::jsonb`,
    );
  if (ids) query = query.where("machine_id", "in", [...ids]);
  return new Set((await query.execute()).map((row) => row.machine_id));
}
