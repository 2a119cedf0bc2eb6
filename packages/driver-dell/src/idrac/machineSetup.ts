import {
  attributeDiffs,
  type BiosAttributes,
  type MachineSetupOptions,
  type MachineSetupResult,
  type MachineSetupStatus,
  resolveBiosProfile,
} from "@racksmith/core";
import {
  evaluateChecks,
  expectationDiffs,
  expectationsOf,
  httpDeviceName,
  machineSetupAttributes,
  machineSetupExpectations,
  machineSetupOemAttributes,
  REMOTE_ACCESS,
  remoteAccessChecks,
} from "../setup/index.js";
import type { BiosStaging } from "./biosStaging.js";
import type { DpuBootOrder } from "./dpuBoot.js";
import type { ManagerAttributes } from "./managerAttributes.js";
import type { NicInventory } from "./nicInventory.js";
import type { IdracResources } from "./resources.js";

/** Everything a Dell host needs before it is managed: NICo's BIOS table, iDRAC settings, remote access. */
export class MachineSetup {
  constructor(
    private readonly idrac: IdracResources,
    private readonly attributes: ManagerAttributes,
    private readonly staging: BiosStaging,
    private readonly nics: NicInventory,
    private readonly dpuBoot: DpuBootOrder,
  ) {}

  /** The model's BIOS profile from the config; an explicit one in the options wins. */
  private profileFor(options: MachineSetupOptions, model: string | undefined): BiosAttributes {
    return options.biosProfile ?? resolveBiosProfile(this.idrac.settings, model) ?? {};
  }

  private async facts(options: MachineSetupOptions) {
    const [system, current] = await Promise.all([this.idrac.system(), this.idrac.bios()]);
    const nic = options.bootInterfaceMac ? await this.nics.byMac(options.bootInterfaceMac) : undefined;
    return { model: system.Model, current, nic, profile: this.profileFor(options, system.Model) };
  }

  /**
   * One BIOS configuration job with the table and the profile (UEFI HTTP boot from the DPU's port when its MAC
   * is given), then the iDRAC settings and remote access, which apply at once. Reboot to run the job.
   */
  async apply(options: MachineSetupOptions): Promise<MachineSetupResult> {
    const operation = "machine setup";
    const { model, current, nic, profile } = await this.facts(options);
    const { attributes, skipped } = machineSetupAttributes(current, nic?.fqdd);
    if (skipped.length > 0)
      this.idrac.logger.warn({ skipped, model }, "BIOS lacks these machine setup attributes");
    const job = await this.staging.stage(operation, { ...attributes, ...profile });
    await this.attributes.writeOem(operation, machineSetupOemAttributes(await this.attributes.read()));
    await this.attributes.write(operation, REMOTE_ACCESS);
    return { job, rebootRequired: true };
  }

  /**
   * What `apply` set that the host does not show yet: BIOS attributes (the TPM hierarchy back to Enabled once
   * cleared), profile, iDRAC settings, remote access, the DPU's HTTP device first. Lockdown is not part of machine
   * setup: the lifecycle waits on `lockdownStatus` for it.
   */
  async status(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    const [{ current, nic, profile }, oem] = await Promise.all([this.facts(options), this.attributes.read()]);
    const diffs = [
      ...expectationDiffs(machineSetupExpectations(current, nic?.fqdd), current),
      ...attributeDiffs(profile, current),
      ...expectationDiffs(expectationsOf(machineSetupOemAttributes(oem)), oem),
    ];
    const remoteAccess = evaluateChecks(remoteAccessChecks(oem));
    if (remoteAccess.state !== "enabled") {
      diffs.push({
        key: "remoteAccess",
        expected: "enabled",
        actual: `${remoteAccess.state}: ${remoteAccess.message}`,
      });
    }
    if (nic) {
      const first = await this.dpuBoot.firstOption();
      if (!this.dpuBoot.firstIsHttpDeviceOf(nic, first)) {
        diffs.push({
          key: "BootOrder[0]",
          expected: httpDeviceName(nic),
          actual: first?.displayName ?? "(none)",
        });
      }
    }
    return { done: diffs.length === 0, diffs };
  }
}
