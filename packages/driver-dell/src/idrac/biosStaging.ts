import type { BiosAttributes, JobRef } from "@racksmith/core";
import { type AttributeMap, differing, textOf } from "../setup/index.js";
import { hasHttpStatus } from "./httpErrors.js";
import { type JobQueue, jobRefOf } from "./jobQueue.js";
import type { ManagerAttributes } from "./managerAttributes.js";
import type { IdracResources } from "./resources.js";

/** With this annotation the iDRAC creates the configuration job itself and answers with its Location. */
const ON_RESET = { "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } } as const;

/** BIOS changes the iDRAC way: staged in `Bios/Settings`, applied by one configuration job at the next reboot. */
export class BiosStaging {
  constructor(
    private readonly idrac: IdracResources,
    private readonly jobs: JobQueue,
    private readonly attributes: ManagerAttributes,
  ) {}

  /** What `Bios/Settings` holds now (empty when the iDRAC has not created it yet). */
  async staged(settingsPath?: string): Promise<AttributeMap> {
    const path = settingsPath ?? (await this.idrac.biosSettingsPath());
    try {
      const settings = await this.idrac.client.get<{ Attributes?: AttributeMap }>(path);
      return settings.Attributes ?? {};
    } catch (error) {
      if (hasHttpStatus(error, 404)) return {};
      throw error;
    }
  }

  /**
   * Stages `changes` and returns the job that applies them. A queued job would block the change, so the queue
   * is cleared first; deleting a BIOS job drops its staged values on the iDRAC, so those are carried into the
   * new job with the changes.
   */
  async stage(operation: string, changes: BiosAttributes): Promise<JobRef> {
    const settingsPath = await this.idrac.biosSettingsPath();
    const queued = await this.jobs.queued();
    const carried = queued.length > 0 ? await this.staged(settingsPath) : {};
    await this.jobs.clear(operation, queued);
    const response = await this.attributes.explain(operation, () =>
      this.idrac.client.patch(settingsPath, { ...ON_RESET, Attributes: { ...carried, ...changes } }),
    );
    if (response.location) return jobRefOf(response.location);
    // Firmware that only staged the values: use the job it made anyway, else create one.
    return (await this.jobs.committedBiosJob()) ?? this.jobs.createConfigJob(operation, settingsPath);
  }

  /**
   * Stages the attributes of `wanted` the BIOS does not have yet, unless a committed job already carries them
   * (so a poller calling again does not churn jobs). Undefined when nothing had to be staged.
   */
  async ensure(
    operation: string,
    wanted: BiosAttributes,
    current: AttributeMap,
  ): Promise<JobRef | undefined> {
    const changes = differing(wanted, current) as BiosAttributes;
    if (Object.keys(changes).length === 0) return undefined;
    const staged = await this.staged();
    const alreadyStaged = Object.entries(changes).every(
      ([key, value]) => textOf(staged[key]) === String(value),
    );
    const committed = alreadyStaged ? await this.jobs.committedBiosJob() : undefined;
    return committed ?? this.stage(operation, changes);
  }
}
