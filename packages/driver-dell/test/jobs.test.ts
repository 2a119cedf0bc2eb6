import type { JobState } from "@racksmith/core";
import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BIOS_SETTINGS,
  DellMockup,
  idracError,
  JOBS,
  MANAGER,
  OEM_JOBS,
  only,
} from "./support/dellMockup.js";
import { R750 } from "./support/mockups.js";

const DELETE_JOB_QUEUE = `${MANAGER}/Oem/Dell/DellJobService/Actions/DellJobService.DeleteJobQueue`;
const job = (id: string) => ({ kind: "job" as const, id, path: `${JOBS}/${id}` });

const mockup = useDriverMockup({ beforeAll, afterAll, beforeEach }, new DellMockup(R750));

describe("job status", () => {
  it.each([
    ["Scheduled", "Task successfully scheduled.", "scheduled"],
    ["Scheduled", "Job processing initialization failure.", "failed"],
    ["New", "Job created.", "scheduled"],
    ["Downloaded", "Package successfully downloaded.", "scheduled"],
    ["Running", "Job in progress.", "running"],
    ["Completed", "Job completed successfully.", "completed"],
    ["CompletedWithErrors", "Job completed with errors.", "completedWithErrors"],
    ["Failed", "Unable to apply the configuration.", "failed"],
    ["Unknown", "", "unknown"],
  ] as Array<[string, string, JobState]>)("maps JobState %s (%s) to %s", async (state, message, expected) => {
    await mockup.addJob("JID_200000000001", { JobState: state, Message: message, PercentComplete: 40 });
    expect(await mockup.driver.jobStatus(job("JID_200000000001"))).toEqual({
      id: "JID_200000000001",
      state: expected,
      percentComplete: 40,
      ...(message ? { message } : {}),
    });
  });

  it("finds a job the iDRAC lists only under Oem/Dell/Jobs, and says when there is none", async () => {
    await mockup.service.createMember(
      OEM_JOBS,
      { JobState: "Running", JobType: "FirmwareUpdate" },
      { id: "JID_200000000002" },
    );
    expect(await mockup.driver.jobStatus(job("JID_200000000002"))).toMatchObject({ state: "running" });
    await expect(mockup.driver.jobStatus(job("JID_200000000003"))).rejects.toMatchObject({
      code: "job_not_found",
      status: "NOT_FOUND",
    });
  });

  it("reads tasks (firmware updates) by their TaskState", async () => {
    const task = await mockup.service.createTask({ durationMs: 60_000 });
    expect(await mockup.driver.jobStatus({ kind: "task", id: "1", path: task.monitorPath })).toMatchObject({
      state: "running",
    });
  });
});

describe("a busy job queue", () => {
  it("that keeps a running job fails the change with bmc_job_queue_busy, staging nothing", async () => {
    await mockup.addJob("JID_200000000004", {
      JobState: "Running",
      JobType: "BIOSConfiguration",
      Name: "Configure: BIOS.Setup.1-1",
    });
    await expect(mockup.driver.setBios({ MemTest: "Enabled" })).rejects.toMatchObject({
      code: "bmc_job_queue_busy",
      status: "FAILED_PRECONDITION",
      details: { jobIds: ["JID_200000000004"] },
      message: expect.stringContaining("JID_200000000004 Running (Configure: BIOS.Setup.1-1)"),
    });
    expect(mockup.takeWrites().map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${DELETE_JOB_QUEUE}`]);
    expect(await mockup.driver.pendingBios()).toEqual({});
  });

  it("that the iDRAC reports itself (SYS011: values already committed) is explained the same way", async () => {
    mockup.intercept("PATCH", /Bios\/Settings$/, () =>
      idracError(
        400,
        "IDRAC.2.8.SYS011",
        "Pending configuration values are already committed, unable to perform another set operation.",
      ),
    );
    await expect(mockup.driver.clearTpm()).rejects.toMatchObject({
      code: "bmc_job_queue_busy",
      details: { messageIds: ["IDRAC.2.8.SYS011"] },
      message: expect.stringContaining("already committed"),
    });
  });

  it("is left alone when only finished jobs are in it", async () => {
    await mockup.addJob("JID_200000000005", { JobState: "Completed", JobType: "BIOSConfiguration" });
    await mockup.addJob("JID_200000000006", { JobState: "Failed", JobType: "FirmwareUpdate" });
    await mockup.driver.setBios({ MemTest: "Enabled" });
    const requests = mockup.takeWrites();
    expect(only(requests, "POST", DELETE_JOB_QUEUE)).toEqual([]);
    expect(only(requests, "PATCH", BIOS_SETTINGS)).toHaveLength(1);
    expect(await mockup.job("JID_200000000005")).toMatchObject({ JobState: "Completed" });
  });
});
