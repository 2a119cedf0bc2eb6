import type { JsonObject, MockupService } from "@racksmith/testkit";
import { BIOS_JOB, isQueued, linkOf, readMembers, systemOfManager } from "./mockupState.js";

/** Both collections list every job on an iDRAC: the standard one and Dell's OEM one. */
export function jobCollections(managerPath: string): [string, string] {
  return [`${managerPath}/Jobs`, `${managerPath}/Oem/Dell/Jobs`];
}

export async function jobsOf(service: MockupService, managerPath: string): Promise<JsonObject[]> {
  const [standard, oem] = jobCollections(managerPath);
  const jobs = await readMembers(service, standard);
  return jobs.length > 0 ? jobs : readMembers(service, oem);
}

export async function queuedBiosJob(
  service: MockupService,
  managerPath: string,
): Promise<JsonObject | undefined> {
  return (await jobsOf(service, managerPath)).find((job) => job.JobType === BIOS_JOB && isQueued(job));
}

const COMPLETED = {
  JobState: "Completed",
  Message: "Job completed successfully.",
  MessageId: "PR19",
  PercentComplete: 100,
};

export interface NewJob {
  readonly name: string;
  readonly type: string;
  readonly target?: string | null;
  /** Complete the job at once instead of at the next host reset. */
  readonly runAtOnce: boolean;
}

/** Job ids already handed out per virtual iDRAC: a deleted job's id is never reused. */
const lastJobNumber = new WeakMap<MockupService, number>();

function nextJobId(service: MockupService): string {
  const next = (lastJobNumber.get(service) ?? 900000000000) + 1;
  lastJobNumber.set(service, next);
  return `JID_${next}`;
}

/** Queues a job in both collections; returns the path the iDRAC names in `Location`. */
export async function createJob(service: MockupService, managerPath: string, job: NewJob): Promise<string> {
  const collections = jobCollections(managerPath);
  const id = nextJobId(service);
  const now = new Date(service.state.now()).toISOString().slice(0, 19);
  const body: JsonObject = {
    "@odata.context": "/redfish/v1/$metadata#DellJob.DellJob",
    "@odata.type": "#DellJob.v1_2_0.DellJob",
    ActualRunningStartTime: null,
    ActualRunningStopTime: null,
    CompletionTime: null,
    Description: "Job Instance",
    EndTime: "TIME_NA",
    JobState: "Scheduled",
    JobType: job.type,
    Message: "Task successfully scheduled.",
    MessageArgs: [],
    Name: job.name,
    PercentComplete: 0,
    StartTime: now,
    TargetSettingsURI: job.target ?? null,
  };
  for (const collection of collections) {
    const created = await service.createMember(collection, body, {
      id,
      collectionType: "#DellJobCollection.DellJobCollection",
    });
    if (job.runAtOnce)
      service.state.schedulePatch(created.path, service.state.now(), { ...COMPLETED, CompletionTime: now });
  }
  return `${collections[0]}/${id}`;
}

/** The next host reset runs every queued job. */
export async function runQueuedJobs(service: MockupService, managerPath: string): Promise<void> {
  const now = new Date(service.state.now()).toISOString().slice(0, 19);
  for (const collection of jobCollections(managerPath)) {
    for (const job of await readMembers(service, collection)) {
      const path = linkOf(job);
      if (path && isQueued(job)) await service.merge(path, { ...COMPLETED, CompletionTime: now });
    }
  }
}

async function removeFromCollection(
  service: MockupService,
  collectionPath: string,
  id: string,
): Promise<void> {
  const collection = await service.read(collectionPath);
  if (!collection || !Array.isArray(collection.Members)) return;
  const members = collection.Members.filter((member) => !(linkOf(member) ?? "").endsWith(`/${id}`));
  service.write(collectionPath, { ...collection, Members: members, "Members@odata.count": members.length });
  service.remove(`${collectionPath}/${id}`);
}

/**
 * Deletes jobs as DeleteJobQueue does: JID_CLEARALL takes every job but a running one, JID_CLEARALL_FORCE all
 * of them. A deleted BIOS job takes its staged values with it. Returns the ids it could not delete.
 */
export async function deleteJobs(
  service: MockupService,
  managerPath: string,
  jobId: string,
): Promise<string[]> {
  const jobs = await jobsOf(service, managerPath);
  const all = jobId === "JID_CLEARALL" || jobId === "JID_CLEARALL_FORCE";
  const selected = all ? jobs : jobs.filter((job) => job.Id === jobId);
  const kept = selected.filter((job) => job.JobState === "Running" && jobId !== "JID_CLEARALL_FORCE");
  for (const job of selected.filter((candidate) => !kept.includes(candidate))) {
    for (const collection of jobCollections(managerPath))
      await removeFromCollection(service, collection, String(job.Id));
    if (job.JobType === BIOS_JOB && isQueued(job)) await dropStagedChanges(service, managerPath);
  }
  return kept.map((job) => String(job.Id));
}

async function dropStagedChanges(service: MockupService, managerPath: string): Promise<void> {
  const systemPath = await systemOfManager(service, managerPath);
  const settings = await service.read(`${systemPath}/Bios/Settings`);
  if (settings) service.write(`${systemPath}/Bios/Settings`, { ...settings, Attributes: {} });
  const pendingSystem = await service.read(`${systemPath}/Settings`);
  if (pendingSystem) {
    const { Boot: _boot, ...rest } = pendingSystem;
    service.write(`${systemPath}/Settings`, rest);
  }
}
