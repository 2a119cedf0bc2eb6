import type { BiosValue, RedfishObject } from "@racksmith/core/redfish";
import { type AttributeValues, SYSTEM_LOCKDOWN } from "../setup/index.js";
import { hasHttpStatus } from "./httpErrors.js";
import { explainRefusal } from "./refusals.js";
import type { IdracResources } from "./resources.js";

interface DellAttributes extends RedfishObject {
  Attributes?: Record<string, BiosValue>;
}

/** The iDRAC's own settings (lockdown, remote access, first boot device) as Dell manager attributes. */
export class ManagerAttributes {
  constructor(private readonly idrac: IdracResources) {}

  /** `Managers/{m}/Oem/Dell/DellAttributes/{m}`: the resource lockdown and status reads go through. */
  private async oemPath(): Promise<string> {
    const [manager, id] = await Promise.all([this.idrac.managerPath(), this.idrac.managerId()]);
    return `${manager}/Oem/Dell/DellAttributes/${encodeURIComponent(id)}`;
  }

  async read(): Promise<Record<string, BiosValue>> {
    const resource = await this.idrac.client.get<DellAttributes>(await this.oemPath());
    // Every read returns the caller's own object: no copy of the iDRAC's thousand-odd attributes is needed.
    return resource.Attributes ?? {};
  }

  async isLockedDown(): Promise<boolean> {
    return (await this.read())[SYSTEM_LOCKDOWN] === "Enabled";
  }

  /** Explains a refusal of `change` (committed job, lockdown) in terms of `operation`. */
  explain<T>(operation: string, change: () => Promise<T>): Promise<T> {
    return explainRefusal(operation, () => this.isLockedDown(), change);
  }

  /** PATCH the DellAttributes resource; the iDRAC applies manager attributes at once. */
  async writeOem(operation: string, attributes: AttributeValues): Promise<void> {
    const path = await this.oemPath();
    await this.explain(operation, () => this.idrac.client.patch(path, { Attributes: attributes }));
  }

  /** PATCH `Managers/{m}/Attributes`; iDRAC 10 dropped that alias, so fall back to DellAttributes there. */
  async write(operation: string, attributes: AttributeValues): Promise<void> {
    const path = `${await this.idrac.managerPath()}/Attributes`;
    try {
      await this.explain(operation, () => this.idrac.client.patch(path, { Attributes: attributes }));
    } catch (error) {
      if (!hasHttpStatus(error, 404)) throw error;
      await this.writeOem(operation, attributes);
    }
  }
}
