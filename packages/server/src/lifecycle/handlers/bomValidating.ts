import { isDeepStrictEqual } from "node:util";
import { doNothing, transition, wait } from "@racksmith/core/engine";
import type { BomVerdict } from "../bom/index.js";
import type { HostOutcome, Step } from "../machine/step.js";
import type { BomValidatingStep, ManagedHostState, ValidationContext } from "../states.js";

type State = Extract<ManagedHostState, { state: "bomValidating" }>;

/**
 * Where a host goes after lockdown (discovery) or cleanup: BOM validation when the site runs it (discovery
 * starts from the inventory just reported, cleanup from a fresh one), else machine validation as before.
 */
export function enterBomValidation(step: Step, context: "discovery" | "cleanup"): HostOutcome {
  if (!step.deps.bomValidation?.()) return transition({ state: "validation", context });
  return transition({
    state: "bomValidating",
    context,
    bomState: { step: context === "discovery" ? "verifyingSku" : "updatingInventory" },
  });
}

/** Ready: an operator's `sku verify` (or a new assignment) takes the host back through BOM validation. */
export async function recheckBomOfReadyHost(step: Step): Promise<HostOutcome> {
  const bom = step.deps.bomValidation?.();
  if (!bom || !step.since(await bom.verifyRequestedAt(step.host.id))) return doNothing();
  return transition({ state: "bomValidating", context: "onDemand", bomState: { step: "updatingInventory" } });
}

/**
 * BomValidating: a fresh inventory from the host agent when asked for, then the verdict of the SKU feature.
 * A host that passes goes on to machine validation (back to Ready after an on-demand check); one that does
 * not waits in the step naming why, re-checked on every run (an assignment or a new SKU lets it on), and
 * goes through a fresh inventory when an operator asks to verify it again.
 */
export async function handleBomValidating(step: Step, state: State): Promise<HostOutcome> {
  const bom = step.deps.bomValidation?.();
  // SKU validation was turned off (or its plugin removed) while the host was here.
  if (!bom) return transition(afterBom(state.context));
  const current = state.bomState;
  const reports = step.snapshot.reports.get(step.host.id);
  if (current.step === "updatingInventory") {
    if (!step.since(reports?.discovery_completed_at)) {
      return wait("waiting for the host agent to send a fresh inventory");
    }
    return transition({ ...state, bomState: { step: "verifyingSku" } });
  }
  if (current.step !== "verifyingSku" && step.since(await bom.verifyRequestedAt(step.host.id))) {
    return transition({ ...state, bomState: { step: "updatingInventory" } });
  }
  const verdict = await bom.evaluate({
    hostId: step.host.id,
    context: state.context,
    inventory: reports?.inventory ?? null,
  });
  const next = bomStepOf(verdict);
  if (next === null) return transition(afterBom(state.context));
  // Deep equality, not JSON text: a state read back from jsonb has its keys in another order.
  if (isDeepStrictEqual(next, current)) return wait(bomWaitReason(next, step.host.id));
  return transition({ ...state, bomState: next });
}

function afterBom(context: ValidationContext): ManagedHostState {
  return context === "onDemand" ? { state: "ready" } : { state: "validation", context };
}

/** The wait a verdict puts the host in; null when it passed. */
export function bomStepOf(verdict: BomVerdict): BomValidatingStep | null {
  switch (verdict.kind) {
    case "passed":
      return null;
    case "waitingForSkuAssignment":
      return { step: "waitingForSkuAssignment" };
    case "skuMissing":
      return { step: "skuMissing", skuId: verdict.skuId };
    case "skuVerificationFailed":
      return { step: "skuVerificationFailed", skuId: verdict.skuId, mismatches: verdict.mismatches };
  }
}

/** Why a host waits, and what an operator does about it. */
export function bomWaitReason(bomState: BomValidatingStep, hostId: string): string {
  switch (bomState.step) {
    case "waitingForSkuAssignment":
      return `no SKU is assigned and no stored SKU matches: assign one (racksmith sku assign <sku> ${hostId}) or create a matching one`;
    case "skuMissing":
      return `SKU ${bomState.skuId} does not exist: create it (racksmith sku create) or assign another`;
    case "skuVerificationFailed":
      return `the host does not match SKU ${bomState.skuId}: ${bomState.mismatches.map((m) => m.message).join("; ")} (fix it, then racksmith sku verify ${hostId})`;
    default:
      return bomState.step;
  }
}
