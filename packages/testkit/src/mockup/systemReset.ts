import type { AdvertisedAction } from "./actions.js";
import { applyPendingBios } from "./biosSettings.js";
import { isJsonObject, type JsonObject, objectField, stringField } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { pendingBootOverride } from "./powerEvents.js";
import { redfishError, resourceMissing } from "./redfishMessages.js";
import { noContent } from "./responses.js";
import type { ServiceCore } from "./serviceCore.js";
import type { MockupResponse } from "./types.js";

/** ResetType values the schema defines; used when the BMC advertises no allowable list. */
const STANDARD_RESET_TYPES = [
  "On",
  "ForceOff",
  "GracefulShutdown",
  "GracefulRestart",
  "ForceRestart",
  "Nmi",
  "ForceOn",
  "PushPowerButton",
  "PowerCycle",
  "Suspend",
  "Pause",
  "Resume",
];

/** The power state a reset leaves the system in. */
export function powerStateAfter(before: string | undefined, resetType: string): string {
  switch (resetType) {
    case "ForceOff":
    case "GracefulShutdown":
      return "Off";
    case "PushPowerButton":
      return before === "Off" ? "On" : "Off";
    case "Nmi":
      return before ?? "On";
    default:
      return "On";
  }
}

/**
 * `#ComputerSystem.Reset`: validates `ResetType` against the advertised allowable values (inline or in the
 * `@Redfish.ActionInfo` resource), changes `PowerState`, and when the system ends up On (an NMI is not a boot)
 * applies pending BIOS settings and reverts a one-time boot override; then behaviors' `onReset` run, then the
 * power listeners.
 */
export async function resetComputerSystem(
  core: ServiceCore,
  action: AdvertisedAction,
  body: JsonObject,
): Promise<MockupResponse> {
  const { service, state, behaviors, power } = core;
  const resetType = body.ResetType;
  if (typeof resetType !== "string") {
    return redfishError(400, "ActionParameterMissing", [action.name, "ResetType"]);
  }
  const allowed = (await allowableResetTypes(state, action.definition)) ?? STANDARD_RESET_TYPES;
  if (!allowed.includes(resetType)) {
    return redfishError(400, "ActionParameterValueNotInList", [resetType, "ResetType", action.name]);
  }
  const system = await state.read(action.resourcePath);
  if (system?.kind !== "json" || system.status !== 200) return resourceMissing(action.resourcePath);
  const before = stringField(system.body, "PowerState");
  const after = powerStateAfter(before, resetType);
  const booted = resetType !== "Nmi" && after === "On";
  const boot = objectField(system.body, "Boot");
  const onceOverride = booted && boot?.BootSourceOverrideEnabled === "Once";
  // Read before the reset and the behaviors consume it; only when someone listens.
  const bootOverride = booted && power.size > 0 ? await pendingBootOverride(state, system.body) : undefined;
  await state.merge(action.resourcePath, {
    PowerState: after,
    ...(onceOverride
      ? { Boot: { BootSourceOverrideEnabled: "Disabled", BootSourceOverrideTarget: "None" } }
      : {}),
  });
  if (booted) await applyPendingBios(state, system.body, action.resourcePath);
  await behaviors.runReset({
    service,
    systemPath: action.resourcePath,
    resetType,
    powerStateBefore: before,
    powerStateAfter: after,
    booted,
  });
  power.emit({
    systemPath: action.resourcePath,
    action: action.name,
    resetType,
    powerStateBefore: before,
    powerStateAfter: after,
    booted,
    bootOverride,
  });
  return noContent();
}

async function allowableResetTypes(
  state: MockupState,
  definition: JsonObject,
): Promise<string[] | undefined> {
  const inline = definition["ResetType@Redfish.AllowableValues"];
  if (Array.isArray(inline)) return inline.filter((value): value is string => typeof value === "string");
  const infoPath = stringField(definition, "@Redfish.ActionInfo");
  if (!infoPath) return undefined;
  const info = await state.read(infoPath);
  if (info?.kind !== "json" || !Array.isArray(info.body.Parameters)) return undefined;
  const parameter = info.body.Parameters.find((p) => isJsonObject(p) && p.Name === "ResetType");
  const values = isJsonObject(parameter) ? parameter.AllowableValues : undefined;
  return Array.isArray(values)
    ? values.filter((value): value is string => typeof value === "string")
    : undefined;
}
