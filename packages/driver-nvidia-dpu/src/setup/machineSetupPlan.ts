import {
  attributeDiffs,
  type BiosAttributes,
  type SecureBootStatus,
  type SettingDiff,
} from "@racksmith/core";
import {
  advertisedAction,
  type BluefieldGeneration,
  type BmcFirmwareVersion,
  MACHINE_SETUP_BIOS,
  type NvidiaSystemOem,
  type ResolvedKey,
  resolveAttributeKey,
} from "../bluefield/index.js";

/** What DPU machine setup stages and later checks, resolved for one BMC. */
export interface MachineSetupPlan {
  /** Expected BIOS values: the vendor keys (spelled as this firmware does), then the operator profile. */
  attributes: BiosAttributes;
  /** The BIOS as it is now. */
  current: BiosAttributes;
  /** Vendor keys the BMC does not list: their spelling was inferred from the firmware release. */
  guessed: ResolvedKey[];
  /** BF3 only: where to turn host rshim off, and its state now. */
  hostRshim: { target: string; current: string | undefined } | undefined;
}

export interface MachineSetupFacts {
  current: BiosAttributes;
  firmware: BmcFirmwareVersion | undefined;
  generation: BluefieldGeneration | undefined;
  oem: NvidiaSystemOem | undefined;
  /** The operator's BIOS profile for this model, if any. */
  profile: BiosAttributes | undefined;
}

export function planMachineSetup(facts: MachineSetupFacts): MachineSetupPlan {
  const vendor = MACHINE_SETUP_BIOS.map(([attribute, value]) => ({
    ...resolveAttributeKey(attribute, facts.current, facts.firmware),
    value,
  }));
  // BF2 has no host rshim switch (NICo skips it there).
  const rshimTarget =
    facts.generation === 2 ? undefined : advertisedAction(facts.oem, "#HostRshim.Set")?.target;
  return {
    attributes: { ...Object.fromEntries(vendor.map(({ key, value }) => [key, value])), ...facts.profile },
    current: facts.current,
    guessed: vendor.filter((resolved) => !resolved.listed),
    hostRshim: rshimTarget ? { target: rshimTarget, current: facts.oem?.HostRshim } : undefined,
  };
}

/** The plan's attributes with every guessed key under its other spelling (the retry after a 400). */
export function respelledAttributes(plan: MachineSetupPlan): BiosAttributes {
  const renames = new Map(plan.guessed.map(({ key, alternative }) => [key, alternative]));
  return Object.fromEntries(
    Object.entries(plan.attributes).map(([key, value]) => [renames.get(key) ?? key, value]),
  );
}

/** Everything machine setup applies that the BMC does not show yet (secure boot counts until the DPU rebooted). */
export function machineSetupDiffs(
  plan: MachineSetupPlan,
  secureBoot: SecureBootStatus | undefined,
): SettingDiff[] {
  const diffs = attributeDiffs(plan.attributes, plan.current);
  if (secureBoot && (secureBoot.enabled !== false || secureBoot.currentBoot === "Enabled")) {
    const actual =
      secureBoot.enabled === false
        ? "Enabled until the next boot"
        : secureBoot.enabled
          ? "Enabled"
          : "unknown";
    diffs.push({ key: "SecureBoot", expected: "Disabled", actual });
  }
  if (plan.hostRshim && plan.hostRshim.current !== "Disabled") {
    diffs.push({ key: "HostRshim", expected: "Disabled", actual: plan.hostRshim.current ?? "(missing)" });
  }
  return diffs;
}
