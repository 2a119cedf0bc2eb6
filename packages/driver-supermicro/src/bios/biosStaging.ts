import type { BiosAttributes } from "@racksmith/core";
import type { Bios } from "@racksmith/core/redfish";
import { type BmcAccess, isNotFound, withLockdownRefusal } from "../bmc/index.js";

/**
 * Supermicro takes BIOS changes as a PATCH of the Bios resource itself and stages them in `Bios/SD` (its
 * advertised settings object) until the next boot.
 */
export class BiosStaging {
  constructor(private readonly bmc: BmcAccess) {}

  async settingsPath(): Promise<string> {
    const biosPath = await this.bmc.biosPath();
    const bios = await this.bmc.client.get<Bios>(biosPath);
    return bios["@Redfish.Settings"]?.SettingsObject?.["@odata.id"] ?? `${biosPath}/SD`;
  }

  async stage(attributes: BiosAttributes, operation: string): Promise<void> {
    const path = await this.bmc.biosPath();
    await withLockdownRefusal(operation, () => this.bmc.client.patch(path, { Attributes: attributes }));
  }

  /** The staged values; the BMC omits `Attributes` (or the whole `SD`) when nothing is pending. */
  async staged(): Promise<BiosAttributes> {
    try {
      return { ...((await this.bmc.client.get<Bios>(await this.settingsPath())).Attributes ?? {}) };
    } catch (error) {
      if (isNotFound(error)) return {};
      throw error;
    }
  }
}
