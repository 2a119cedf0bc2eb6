import { isJsonObject, type JsonObject, linkOf, objectField, stringField } from "./json.js";
import type { MockupState } from "./mockupState.js";

/** A boot source override that was set when the system was reset (`BootSourceOverrideTarget/Enabled`). */
export interface MockupBootOverride {
  readonly target: string;
  /** `Once` or `Continuous`. */
  readonly enabled: string;
}

/**
 * One reset of a computer system: the standard `#ComputerSystem.Reset`, or a vendor reset action (an AC power
 * cycle) that a behavior carried out. Fired after the reset's effects (and the behaviors' `onReset`) applied.
 */
export interface MockupPowerChange {
  readonly systemPath: string;
  /** The action as advertised: `#ComputerSystem.Reset`, `#OemSystemExtensions.Reset`, … */
  readonly action: string;
  /** The request's `ResetType`, when it had one. */
  readonly resetType: string | undefined;
  readonly powerStateBefore: string | undefined;
  readonly powerStateAfter: string | undefined;
  /** The system ended powered On by this reset: it booted. */
  readonly booted: boolean;
  /**
   * The override the boot used, as it was before the reset: the system's `Boot`, else the `Boot` staged in its
   * settings object (`@Redfish.Settings`, where BlueField BMCs take it). Undefined when none or no boot.
   */
  readonly bootOverride: MockupBootOverride | undefined;
}

/** Called synchronously while the service still holds its write lock: never call `service.handle` from it. */
export type MockupPowerListener = (change: MockupPowerChange) => void;

/** The power listeners of one service. Cheap when empty: callers skip the extra reads then. */
export class PowerListeners {
  private listeners: MockupPowerListener[] = [];

  constructor(private readonly onError: (error: unknown) => void) {}

  get size(): number {
    return this.listeners.length;
  }

  add(listener: MockupPowerListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((candidate) => candidate !== listener);
    };
  }

  /** A failing listener must not fail the BMC's answer, nor keep the others from hearing of the reset. */
  emit(change: MockupPowerChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

/** The override the next boot of this system uses (see {@link MockupPowerChange.bootOverride}). */
export async function pendingBootOverride(
  state: MockupState,
  system: JsonObject,
): Promise<MockupBootOverride | undefined> {
  const own = activeOverride(objectField(system, "Boot"));
  if (own) return own;
  const settingsPath = linkOf(objectField(system, "@Redfish.Settings")?.SettingsObject);
  if (!settingsPath) return undefined;
  const settings = await state.read(settingsPath);
  return settings?.kind === "json" && settings.status === 200
    ? activeOverride(objectField(settings.body, "Boot"))
    : undefined;
}

function activeOverride(boot: JsonObject | undefined): MockupBootOverride | undefined {
  const enabled = stringField(boot, "BootSourceOverrideEnabled");
  const target = stringField(boot, "BootSourceOverrideTarget");
  if (!enabled || enabled === "Disabled" || !target || target === "None") return undefined;
  return { target, enabled };
}

/** True for a resource that is a computer system (it has a power state), the only kind a reset boots. */
export function isPoweredResource(resource: JsonObject | undefined): resource is JsonObject {
  return isJsonObject(resource) && typeof resource.PowerState === "string";
}
