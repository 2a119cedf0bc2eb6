import type { AdvertisedAction } from "./actions.js";
import { type JsonObject, stringField } from "./json.js";
import { isPoweredResource, pendingBootOverride } from "./powerEvents.js";
import type { ServiceCore } from "./serviceCore.js";
import type { MockupResponse } from "./types.js";

/**
 * Vendor resets (AC power cycles, `HpeComputerSystemExt.SystemReset`, …) are carried out by behaviors, which
 * write `PowerState` directly. To let power listeners hear of them, the system's power state and pending boot
 * override are noted before the behavior runs; {@link reportVendorReset} compares afterwards. Costs nothing
 * when no one listens or the action is not on a computer system.
 */
export interface VendorResetWatch {
  readonly powerStateBefore: string | undefined;
  readonly bootOverride: Awaited<ReturnType<typeof pendingBootOverride>>;
}

export async function watchVendorReset(
  core: ServiceCore,
  action: AdvertisedAction,
): Promise<VendorResetWatch | undefined> {
  if (core.power.size === 0) return undefined;
  const system = await core.state.readJson(action.resourcePath);
  if (!isPoweredResource(system)) return undefined;
  return {
    powerStateBefore: stringField(system, "PowerState"),
    bootOverride: await pendingBootOverride(core.state, system),
  };
}

/** A successful answer to a reset-named action, or any action that changed the power state, is a reset. */
export async function reportVendorReset(
  core: ServiceCore,
  action: AdvertisedAction,
  body: JsonObject,
  watch: VendorResetWatch | undefined,
  response: MockupResponse,
): Promise<void> {
  if (!watch || response.status >= 300) return;
  const after = stringField(await core.state.readJson(action.resourcePath), "PowerState");
  const isReset = /reset/i.test(action.name) || after !== watch.powerStateBefore;
  if (!isReset) return;
  const booted = after === "On" && body.ResetType !== "Nmi";
  core.power.emit({
    systemPath: action.resourcePath,
    action: action.name,
    resetType: stringField(body, "ResetType"),
    powerStateBefore: watch.powerStateBefore,
    powerStateAfter: after,
    booted,
    bootOverride: booted ? watch.bootOverride : undefined,
  });
}
