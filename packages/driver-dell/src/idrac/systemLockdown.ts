import { NotSupportedError, type TriStateStatus } from "@racksmith/core";
import type { BiosValue } from "@racksmith/core/redfish";
import {
  BIOS_UNLOCK,
  LOCKDOWN_OFF,
  LOCKDOWN_ON,
  lockdownPreparation,
  lockdownStatusOf,
  RACADM,
  SYSTEM_LOCKDOWN,
} from "../setup/index.js";
import type { BiosStaging } from "./biosStaging.js";
import { isReadOnlyRefusal } from "./httpErrors.js";
import type { ManagerAttributes } from "./managerAttributes.js";
import type { IdracResources } from "./resources.js";

/** iDRAC System Lockdown with racadm off (and, when unlocking, the BIOS half of it). */
export class SystemLockdown {
  constructor(
    private readonly idrac: IdracResources,
    private readonly attributes: ManagerAttributes,
    private readonly staging: BiosStaging,
  ) {}

  private async read(): Promise<Record<string, BiosValue>> {
    const attributes = await this.attributes.read();
    if (!(SYSTEM_LOCKDOWN in attributes)) {
      throw new NotSupportedError(
        "lockdown",
        `this iDRAC has no ${SYSTEM_LOCKDOWN} attribute (System Lockdown needs an Enterprise or Datacenter license)`,
      );
    }
    return attributes;
  }

  async status(): Promise<TriStateStatus> {
    return lockdownStatusOf(await this.read());
  }

  /** Two writes: racadm and boot device first, System Lockdown last, since it freezes every other setting. */
  async enable(): Promise<void> {
    const operation = "lockdown enable";
    const attributes = await this.read();
    if (lockdownStatusOf(attributes).state === "enabled") return;
    // A partial lockdown with System Lockdown on would refuse the first write: lift it, then lock again.
    if (attributes[SYSTEM_LOCKDOWN] === "Enabled") {
      await this.attributes.writeOem(operation, { [SYSTEM_LOCKDOWN]: "Disabled" });
    }
    await this.attributes.writeOem(operation, lockdownPreparation((await this.idrac.system()).Model));
    await this.attributes.writeOem(operation, LOCKDOWN_ON);
  }

  /** System Lockdown and racadm at once, then the BIOS half (which some BIOS keeps read-only: that is fine). */
  async disable(): Promise<void> {
    const operation = "lockdown disable";
    const attributes = await this.read();
    if (attributes[SYSTEM_LOCKDOWN] !== "Disabled" || attributes[RACADM] !== "Enabled") {
      await this.attributes.writeOem(operation, LOCKDOWN_OFF);
    }
    try {
      await this.staging.ensure(operation, BIOS_UNLOCK, await this.idrac.bios());
    } catch (error) {
      if (!isReadOnlyRefusal(error)) throw error;
      this.idrac.logger.info(
        { err: (error as Error).message },
        "BIOS lockdown attributes are read-only here; left as they are",
      );
    }
  }
}
