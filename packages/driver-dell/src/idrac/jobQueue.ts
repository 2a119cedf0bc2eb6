import { type JobRef, type JobStatus, jobStateOf } from "@racksmith/core";
import { lastSegment, type RedfishObject, type Task } from "@racksmith/core/redfish";
import { JobNotCreatedError, JobNotFoundError, JobQueueBusyError } from "../errors/index.js";
import { hasHttpStatus } from "./httpErrors.js";
import { dellJobState, isQueued } from "./jobState.js";
import type { ManagerAttributes } from "./managerAttributes.js";
import type { IdracResources } from "./resources.js";

export interface DellJob extends RedfishObject {
  Id?: string;
  Name?: string;
  JobState?: string;
  JobType?: string;
  Message?: string;
  MessageId?: string;
  PercentComplete?: number;
  TargetSettingsURI?: string | null;
}

/** Deletes every job; the only way the iDRAC lets a new change through once a job is committed. */
const CLEAR_ALL = "JID_CLEARALL";
const BIOS_JOB = "BIOSConfiguration";

/** A JobRef to a job (or task) the iDRAC named in a `Location` header. */
export function jobRefOf(location: string, kind: JobRef["kind"] = "job"): JobRef {
  return { kind, id: lastSegment(location.replace(/\/Monitor\/?$/i, "")), path: location };
}

function describe(jobs: readonly DellJob[]): string {
  return jobs
    .map((job) => `${job.Id ?? "?"} ${job.JobState ?? "?"}${job.Name ? ` (${job.Name})` : ""}`)
    .join(", ");
}

/** The iDRAC job queue: configuration jobs that apply staged settings at the next reboot, and their state. */
export class JobQueue {
  private resolvedCollection: string | undefined;

  constructor(
    private readonly idrac: IdracResources,
    private readonly attributes: ManagerAttributes,
  ) {}

  /** `Managers/{m}/Jobs`; firmware without it has only the Dell OEM job collection the manager links. */
  async collectionPath(): Promise<string> {
    if (this.resolvedCollection) return this.resolvedCollection;
    const managerPath = await this.idrac.managerPath();
    const standard = `${managerPath}/Jobs`;
    try {
      await this.idrac.client.get(standard);
      this.resolvedCollection = standard;
    } catch (error) {
      if (!hasHttpStatus(error, 404)) throw error;
      this.resolvedCollection = await this.oemCollectionPath();
    }
    return this.resolvedCollection;
  }

  private async oemCollectionPath(): Promise<string> {
    const links = (await this.idrac.manager()).Links as {
      Oem?: { Dell?: { Jobs?: { "@odata.id"?: string } } };
    };
    return links?.Oem?.Dell?.Jobs?.["@odata.id"] ?? `${await this.idrac.managerPath()}/Oem/Dell/Jobs`;
  }

  /** Jobs still queued: scheduled, running, or stuck. */
  async queued(): Promise<DellJob[]> {
    const jobs = await this.idrac.members<DellJob>(await this.collectionPath());
    return jobs.filter((job) => isQueued(job.JobState));
  }

  /** The BIOS configuration job waiting for the next reboot, if there is one. */
  async committedBiosJob(): Promise<JobRef | undefined> {
    const job = (await this.queued()).find((candidate) => candidate.JobType === BIOS_JOB);
    const path = job?.["@odata.id"];
    return typeof path === "string" ? jobRefOf(path) : undefined;
  }

  /**
   * Empties the queue when anything is queued (a committed job blocks every new change), then checks that it
   * is empty: the iDRAC does not delete a running job, and some firmware ignores the request.
   */
  async clear(operation: string, queued?: readonly DellJob[]): Promise<void> {
    if ((queued ?? (await this.queued())).length === 0) return;
    const target = `${await this.idrac.managerPath()}/Oem/Dell/DellJobService/Actions/DellJobService.DeleteJobQueue`;
    await this.attributes.explain(operation, () => this.idrac.client.post(target, { JobID: CLEAR_ALL }));
    const left = await this.queued();
    if (left.length > 0) {
      throw new JobQueueBusyError(
        `${operation}: the iDRAC kept ${left.length} job(s) after clearing its queue (${describe(left)}); a running job cannot be deleted, wait for it to finish`,
        { jobIds: left.map((job) => job.Id ?? "") },
      );
    }
  }

  /** Creates the configuration job that applies a settings object at the next reboot. */
  async createConfigJob(operation: string, settingsPath: string): Promise<JobRef> {
    const collection = await this.collectionPath();
    const response = await this.attributes.explain(operation, () =>
      this.idrac.client.post(collection, { TargetSettingsURI: settingsPath }),
    );
    if (!response.location) throw new JobNotCreatedError(operation, collection);
    return jobRefOf(response.location);
  }

  /** Reads a job where the iDRAC put it, else under the Dell OEM collection that lists every job too. */
  private async read(job: JobRef): Promise<DellJob & Task> {
    try {
      return await this.idrac.client.get<DellJob & Task>(job.path);
    } catch (error) {
      if (!hasHttpStatus(error, 404)) throw error;
    }
    const fallback = `${await this.oemCollectionPath()}/${encodeURIComponent(job.id)}`;
    try {
      return await this.idrac.client.get<DellJob & Task>(fallback);
    } catch (error) {
      if (hasHttpStatus(error, 404)) throw new JobNotFoundError(job.id, `${job.path}, ${fallback}`);
      throw error;
    }
  }

  /** The state of a Dell job (`JobState`), or of the Task an SCP import or update answered with. */
  async status(job: JobRef): Promise<JobStatus> {
    const resource = await this.read(job);
    const message =
      resource.Message ??
      resource.Messages?.map((m) => m.Message ?? m.MessageId)
        .filter(Boolean)
        .join("; ");
    return {
      id: job.id,
      state:
        resource.JobState !== undefined
          ? dellJobState(resource.JobState, resource.Message)
          : jobStateOf(String(resource.TaskState ?? "")),
      ...(typeof resource.PercentComplete === "number" ? { percentComplete: resource.PercentComplete } : {}),
      ...(message ? { message } : {}),
    };
  }
}
