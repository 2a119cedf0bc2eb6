import type { HostTestOutcome } from "@racksmith/core";
import { silentLogger } from "@racksmith/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MachineValidationClient } from "../api/grpc/generated/racksmith/v1/MachineValidation.js";
import type { ValidationRun } from "../api/grpc/generated/racksmith/v1/ValidationRun.js";
import {
  clearSite,
  insertHost,
  parkedManagedHostMachine,
  placeHost,
} from "../lifecycle/agents/__fixtures__/site.js";
import type { ManagedHostState } from "../lifecycle/index.js";
import { type ApiHarness, call, grpcFailure, startApiHarness } from "../testing/index.js";
import { exitCodeRules } from "./__fixtures__/exitCodeRules.js";
import {
  MACHINE_VALIDATION_SERVICE,
  machineValidationGrpcServices,
  machineValidationRestRoutes,
} from "./api/index.js";
import { createHostTestRuns } from "./hostTestRuns.js";
import { MachineValidationService } from "./service.js";
import { MachineValidationStore } from "./store.js";

const NOW = new Date("2026-06-01T10:00:00.000Z");
const READY: ManagedHostState = { state: "ready" };

let harness: ApiHarness;
let service: MachineValidationService;
let store: MachineValidationStore;

beforeAll(async () => {
  harness = await startApiHarness({
    name: "machine_validation",
    machines: [parkedManagedHostMachine()],
    apis: ({ database, engine, logger }) => {
      service = new MachineValidationService({
        database,
        engine,
        logger,
        rules: exitCodeRules,
        clock: () => NOW,
      });
      return {
        rest: [machineValidationRestRoutes(service)],
        grpc: machineValidationGrpcServices(service, logger),
      };
    },
  });
  store = new MachineValidationStore(harness.database.db);
});
afterAll(async () => {
  await harness?.close();
});
beforeEach(async () => {
  await clearSite(harness.database);
  await harness.database.db.deleteFrom("validation_tests").execute();
  await store.writeBuiltIns(exitCodeRules.builtInTests, NOW);
  harness.enqueued.length = 0;
});

async function host(id: string, state: ManagedHostState = READY) {
  await insertHost(harness.database, { id, dpus: [{ id: `${id}-dpu`, hostFacingMac: "02:00:00:00:09:01" }] });
  await placeHost(harness.engine, harness.database, id, state);
}

const rest = async <T>(method: "GET" | "POST" | "PATCH", url: string, payload?: object) => {
  const response = await harness.rest.inject({ method, url, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as T };
};
const siteTest = {
  id: "site_Fans",
  command: "/opt/fans",
  timeoutMs: 30_000,
  contexts: ["cleanup", "onDemand"],
};
type ErrorBody = { error: { code: string; message: string } };

describe("the test catalogue", () => {
  it("holds the plugin's built-in tests and the site's own: added unverified, each update a new unverified version", async () => {
    const added = await rest("POST", "/api/v1/validation/tests", siteTest);
    expect(added).toMatchObject({
      status: 201,
      body: { id: "site_Fans", version: "v1", verified: false, builtIn: false },
    });
    expect((await rest<ErrorBody>("POST", "/api/v1/validation/tests", siteTest)).body.error.code).toBe(
      "validation_test_exists",
    );
    expect((await rest("POST", "/api/v1/validation/tests/site_Fans/verify")).body).toMatchObject({
      verified: true,
    });
    const updated = await rest("PATCH", "/api/v1/validation/tests/site_Fans", { timeoutMs: 45_000 });
    expect(updated.body).toMatchObject({
      timeoutMs: 45_000,
      version: "v2",
      verified: false,
      contexts: ["cleanup", "onDemand"],
    });
    const listed = await rest<{ tests: Array<{ id: string; builtIn: boolean }> }>(
      "GET",
      "/api/v1/validation/tests",
    );
    expect(listed.body.tests.map((t) => [t.id, t.builtIn])).toEqual([
      ["builtin_Stress", true],
      ["site_Fans", false],
    ]);
  });

  it("keeps built-in tests read-only but for enabling, which a restart does not undo", async () => {
    for (const [method, url, body] of [
      ["PATCH", "/api/v1/validation/tests/builtin_Stress", { timeoutMs: 1_000 }],
      ["POST", "/api/v1/validation/tests/builtin_Stress/verify", undefined],
    ] as const) {
      const refused = await rest<ErrorBody>(method, url, body);
      expect(refused.status).toBe(412);
      expect(refused.body.error).toMatchObject({ code: "validation_test_read_only" });
    }
    expect((await rest("POST", "/api/v1/validation/tests/builtin_Stress/disable")).body).toMatchObject({
      enabled: false,
    });
    await store.writeBuiltIns(exitCodeRules.builtInTests, NOW);
    expect((await store.test("builtin_Stress"))?.enabled).toBe(false);
    expect((await rest<ErrorBody>("POST", "/api/v1/validation/tests/nope/enable")).status).toBe(404);
  });
});

describe("runs", () => {
  const runs = () =>
    createHostTestRuns({ store, rules: exitCodeRules, clock: () => NOW, logger: silentLogger });
  const outcome = (testId: string, change: Partial<HostTestOutcome> = {}): HostTestOutcome => ({
    testId,
    exitCode: 0,
    stdout: "",
    stderr: "",
    startedAt: NOW.toISOString(),
    endedAt: new Date(NOW.getTime() + 1_500).toISOString(),
    timedOut: false,
    ...change,
  });

  it("make one run per validation, hand it to the agent, and judge what it reports, once", async () => {
    await host("h-1", { state: "validation", context: "cleanup" });
    await service.add(siteTest);
    await service.verify("site_Fans");
    const hostTests = runs();
    const started = await hostTests.ensureRun({
      hostId: "h-1",
      context: "cleanup",
      since: NOW,
      inventory: null,
    });
    expect(started).toMatchObject({ status: "pending", tests: 2 });
    // A second look finds the same run.
    expect(
      await hostTests.ensureRun({ hostId: "h-1", context: "cleanup", since: NOW, inventory: null }),
    ).toEqual(started);
    const pending = await hostTests.pendingRun("h-1");
    expect(pending?.tests.map((t) => t.id)).toEqual(["builtin_Stress", "site_Fans"]);

    const runId = pending?.runId ?? "";
    const result = await hostTests.recordOutcomes("h-1", runId, [
      outcome("site_Fans", { exitCode: 3, stderr: "x".repeat(10_000) }),
    ]);
    expect(result).toEqual({
      context: "cleanup",
      passed: false,
      runBy: "host-tests",
      results: [{ name: "site_Fans", passed: false, message: "exit code 3", durationMs: 1_500 }],
    });
    // Reported again (an agent retrying): nothing changes.
    expect(await hostTests.recordOutcomes("h-1", runId, [outcome("site_Fans")])).toEqual(result);
    expect(await hostTests.pendingRun("h-1")).toBeNull();
    const shown = await rest<{ runs: Array<Record<string, unknown>> }>(
      "GET",
      "/api/v1/machines/h-1/validation/runs",
    );
    expect(shown.body.runs).toEqual([
      expect.objectContaining({
        id: runId,
        status: "completed",
        passed: false,
        unschedulable: [{ testId: "builtin_Stress", reason: "the host agent reported no outcome" }],
        results: [expect.objectContaining({ testId: "site_Fans", exitCode: 3, stderr: "x".repeat(4096) })],
      }),
    ]);
    await expect(hostTests.recordOutcomes("h-1", "no-such-run", [])).rejects.toMatchObject({
      code: "validation_run_not_found",
    });
  });

  it("run on demand on a Ready host without an instance: the tests named, unverified ones too", async () => {
    await host("h-2");
    await service.add(siteTest);
    const started = await rest<{ id: string; tests: string[]; status: string }>(
      "POST",
      "/api/v1/machines/h-2/validation/runs",
      { tests: ["site_Fans", "nope"] },
    );
    expect(started).toMatchObject({
      status: 202,
      body: { tests: ["site_Fans"], status: "pending", requestedBy: "operator" },
    });
    expect(started.body).toMatchObject({
      unschedulable: [{ testId: "nope", reason: "no test has this id" }],
    });
    expect(harness.enqueued).toEqual(["h-2"]);
    expect(await runs().onDemandRequested("h-2")).toBe(true);
    const nothing = await rest<ErrorBody>("POST", "/api/v1/machines/h-2/validation/runs", {
      tests: ["nope"],
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.message).toMatch(/no test can run on host h-2: nope: no test has this id/);
  });

  it("refuse an on-demand run on an assigned host, naming its state", async () => {
    await host("h-3", { state: "assigned", instanceId: "i-1", instanceState: { step: "ready" } });
    const refused = await rest<ErrorBody>("POST", "/api/v1/machines/h-3/validation/runs", {});
    expect(refused.status).toBe(412);
    expect(refused.body.error).toMatchObject({ code: "validation_run_not_allowed" });
    expect(refused.body.error.message).toMatch(
      /host h-3 is assigned\/ready: on-demand validation runs only on Ready hosts/,
    );
  });

  it("answer the same over gRPC", async () => {
    await host("h-4");
    const client = harness.client<MachineValidationClient>(
      MACHINE_VALIDATION_SERVICE,
      "racksmith/v1/machine_validation.proto",
    );
    const bad = await grpcFailure(call((cb) => client.addValidationTest({ testJson: "[1]" }, cb)));
    expect(bad).toMatchObject({ code: 3, details: expect.stringMatching(/test_json must be a JSON object/) });
    const run = await call<ValidationRun>((cb) =>
      client.startValidationRun({ machineId: "h-4", tests: ["builtin_Stress"] }, cb),
    );
    expect(run).toMatchObject({ machineId: "h-4", tests: ["builtin_Stress"], status: "pending" });
    expect(await call<ValidationRun>((cb) => client.getValidationRun({ id: run.id }, cb))).toMatchObject({
      id: run.id,
    });
  });

  it("without host test rules answer host_tests_not_loaded, naming the plugin", async () => {
    const bare = new MachineValidationService({
      database: harness.database,
      engine: harness.engine,
      logger: silentLogger,
      rules: undefined,
    });
    await expect(bare.add(siteTest)).rejects.toMatchObject({
      code: "host_tests_not_loaded",
      message: expect.stringMatching(/@racksmith\/validation-host-tests/),
    });
  });
});
