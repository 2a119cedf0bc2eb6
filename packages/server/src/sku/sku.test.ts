import { silentLogger } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MachineSku } from "../api/grpc/generated/racksmith/v1/MachineSku.js";
import type { Sku } from "../api/grpc/generated/racksmith/v1/Sku.js";
import type { SkusClient } from "../api/grpc/generated/racksmith/v1/Skus.js";
import {
  clearSite,
  insertHost,
  parkedManagedHostMachine,
  placeHost,
} from "../lifecycle/agents/__fixtures__/site.js";
import type { ManagedHostState } from "../lifecycle/index.js";
import { type ApiHarness, call, grpcFailure, startApiHarness } from "../testing/index.js";
import { gpuCountRules, inventoryOf } from "./__fixtures__/gpuCountRules.js";
import { SKU_SERVICE, skuGrpcServices, skuRestRoutes } from "./api/index.js";
import { createBomValidation } from "./bomEvaluation.js";
import { DEFAULT_SKU_VALIDATION_CONFIG, type ResolvedSkuValidationConfig } from "./config.js";
import { SkuService } from "./skuService.js";
import { SkuStore } from "./store.js";

const NOW = new Date("2026-05-01T10:00:00.000Z");
const READY: ManagedHostState = { state: "ready" };
const WAITING: ManagedHostState = {
  state: "bomValidating",
  context: "discovery",
  bomState: { step: "waitingForSkuAssignment" },
};

let harness: ApiHarness;
let service: SkuService;

beforeAll(async () => {
  harness = await startApiHarness({
    name: "sku",
    machines: [parkedManagedHostMachine()],
    apis: ({ database, engine, logger }) => {
      service = new SkuService({ database, engine, logger, rules: gpuCountRules, clock: () => NOW });
      return { rest: [skuRestRoutes(service)], grpc: skuGrpcServices(service, logger) };
    },
  });
});
afterAll(async () => {
  await harness?.close();
});
beforeEach(async () => {
  await clearSite(harness.database);
  await harness.database.db.deleteFrom("skus").execute();
  harness.enqueued.length = 0;
});

/** A host of `model` with `gpus` GPUs (no inventory when `gpus` is null) in `state`. */
async function host(
  id: string,
  options: { model?: string; gpus?: number | null; state?: ManagedHostState; expectedSku?: string } = {},
) {
  const bmcMac = `02:00:00:00:00:${id.slice(-2).padStart(2, "0")}`;
  await insertHost(harness.database, {
    id,
    bmcMac,
    dpus: [{ id: `${id}-dpu`, hostFacingMac: `${bmcMac}0` }],
  });
  await placeHost(harness.engine, harness.database, id, options.state ?? READY);
  const gpus = options.gpus === undefined ? 4 : options.gpus;
  if (gpus !== null) {
    await harness.database.db
      .insertInto("machine_reports")
      .values({
        machine_id: id,
        inventory: JSON.stringify(inventoryOf(options.model ?? "A", gpus)),
        updated_at: NOW,
      })
      .execute();
  }
  if (options.expectedSku !== undefined) {
    await harness.database.db
      .insertInto("expected_machines")
      .values({
        bmc_mac: bmcMac,
        bmc_address: null,
        bmc_address_ipv4: null,
        factory_username: null,
        has_factory_password: false,
        chassis_serial: `C-${id}`,
        fallback_dpu_serials: "[]",
        dpu_mode: "dpu",
        driver: null,
        labels: "{}",
        sku_id: options.expectedSku,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
  }
}

const rest = async <T>(method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) => {
  const response = await harness.rest.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as T };
};
const skuA = { id: "acme.a.gpu.1", model: "A", gpus: 4, description: "four GPUs" };

describe("the SKU API", () => {
  it("creates a SKU, assigning it to the Ready and waiting hosts without one that match, and waking the waiting ones", async () => {
    await host("h-01");
    await host("h-02", { state: WAITING });
    await host("h-03", { model: "B" });
    await host("h-04", { state: { state: "assigned", instanceId: "i", instanceState: { step: "ready" } } });
    const created = await rest<{ id: string; hostIds: string[]; document: object }>(
      "POST",
      "/api/v1/skus",
      skuA,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: "acme.a.gpu.1", hostIds: ["h-01", "h-02"] });
    expect(created.body.document).toEqual({ ...skuA, schemaVersion: 1 });
    expect(harness.enqueued.sort()).toEqual(["h-01", "h-02"]);
    expect((await service.hostSku("h-01")).assignedBy).toBe("matched");

    const listed = await rest<{ skus: object[] }>("GET", "/api/v1/skus");
    expect(listed.body.skus).toEqual([
      {
        id: "acme.a.gpu.1",
        schemaVersion: 1,
        description: "four GPUs",
        createdAt: NOW.toISOString(),
        hostIds: ["h-01", "h-02"],
      },
    ]);
    expect((await rest<{ document: object }>("GET", "/api/v1/skus/acme.a.gpu.1")).body.document).toEqual({
      ...skuA,
      schemaVersion: 1,
    });
  });

  it.each<[string, unknown, number, RegExp]>([
    ["a field the rules refuse, naming it", { ...skuA, gpus: "four" }, 400, /gpus must be a whole number/],
    ["no id", { model: "A", gpus: 1 }, 400, /id/],
    ["an id taken already", skuA, 409, /SKU acme\.a\.gpu\.1 exists already/],
  ])("refuses %s", async (_name, body, status, message) => {
    await service.create(skuA);
    const refused = await rest<{ error: { message: string } }>("POST", "/api/v1/skus", body);
    expect(refused.status).toBe(status);
    expect(refused.body.error.message).toMatch(message);
  });

  it("generates a host's SKU without storing it, and says why it cannot", async () => {
    await host("h-05", { model: "B", gpus: 8 });
    await host("h-06", { gpus: null });
    const generated = await rest("POST", "/api/v1/skus/generate", { machineId: "h-05", id: "b.8" });
    expect(generated).toEqual({
      status: 200,
      body: { id: "b.8", schemaVersion: 1, description: "", model: "B", gpus: 8 },
    });
    expect(await service.list()).toEqual([]);
    expect(await rest("POST", "/api/v1/skus/generate", { machineId: "h-06" })).toMatchObject({
      status: 412,
      body: { error: { code: "inventory_not_reported" } },
    });
    expect(await rest("POST", "/api/v1/skus/generate", { machineId: "nope" })).toMatchObject({
      status: 404,
      body: { error: { code: "machine_not_found" } },
    });
    const dpu = await rest<{ error: { message: string } }>("POST", "/api/v1/skus/generate", {
      machineId: "h-05-dpu",
    });
    expect(dpu.status).toBe(400);
    expect(dpu.body.error.message).toMatch(/h-05-dpu is a DPU of host h-05/);
  });

  it("assigns a SKU to hosts, asking for each to be verified; a SKU in use is not deleted", async () => {
    await service.create(skuA);
    await host("h-07", { model: "B" });
    harness.enqueued.length = 0;
    const assigned = await rest<{ hostIds: string[] }>("POST", "/api/v1/skus/acme.a.gpu.1/assign", {
      machineIds: ["h-07"],
    });
    expect(assigned).toMatchObject({ status: 200, body: { hostIds: ["h-07"] } });
    expect(harness.enqueued).toEqual(["h-07"]);
    expect((await rest("GET", "/api/v1/machines/h-07/sku")).body).toMatchObject({
      hostId: "h-07",
      skuId: "acme.a.gpu.1",
      assignedBy: "operator",
      verifyRequestedAt: NOW.toISOString(),
      state: "ready",
    });
    expect(await rest("POST", "/api/v1/skus/nope/assign", { machineIds: ["h-07"] })).toMatchObject({
      status: 404,
      body: { error: { code: "sku_not_found" } },
    });
    const inUse = await rest<{ error: { message: string } }>("DELETE", "/api/v1/skus/acme.a.gpu.1");
    expect(inUse.status).toBe(412);
    expect(inUse.body.error.message).toMatch(/assigned to 1 host\(s\) \(h-07\)/);

    expect((await rest("DELETE", "/api/v1/machines/h-07/sku")).body).toMatchObject({
      skuId: null,
      assignedBy: null,
    });
    expect((await rest("DELETE", "/api/v1/skus/acme.a.gpu.1")).status).toBe(200);
    expect((await rest("GET", "/api/v1/skus/acme.a.gpu.1")).status).toBe(404);
  });

  it("verifies Ready and BOM-validating hosts on request, and refuses an assigned one naming its state", async () => {
    await host("h-08");
    await host("h-09", { state: WAITING });
    await host("h-10", { state: { state: "assigned", instanceId: "i", instanceState: { step: "ready" } } });
    for (const id of ["h-08", "h-09"]) {
      expect(await rest("POST", `/api/v1/machines/${id}/sku/verify`)).toMatchObject({
        status: 202,
        body: { hostId: id, verifyRequestedAt: NOW.toISOString() },
      });
    }
    const refused = await rest<{ error: { code: string; message: string } }>(
      "POST",
      "/api/v1/machines/h-10/sku/verify",
    );
    expect(refused.status).toBe(412);
    expect(refused.body.error.code).toBe("sku_verify_not_allowed");
    expect(refused.body.error.message).toMatch(/host h-10 is assigned\/ready/);
  });

  it("answers the same over gRPC, a document that is not JSON an INVALID_ARGUMENT naming the field", async () => {
    await host("h-11");
    const client = harness.client<SkusClient>(SKU_SERVICE, "racksmith/v1/sku.proto");
    const created = await call<Sku>((cb) => client.createSku({ documentJson: JSON.stringify(skuA) }, cb));
    expect(created).toMatchObject({ id: "acme.a.gpu.1", hostIds: ["h-11"] });
    expect(JSON.parse(created.documentJson ?? "")).toEqual({ ...skuA, schemaVersion: 1 });
    const bad = await grpcFailure(call((cb) => client.createSku({ documentJson: "{" }, cb)));
    expect(bad).toMatchObject({ code: 3, errorCode: "invalid_argument" });
    expect(bad.details).toMatch(/document_json is not JSON/);
    const verified = await call<MachineSku>((cb) => client.verifySku({ machineId: "h-11" }, cb));
    expect(verified).toMatchObject({
      hostId: "h-11",
      skuId: "acme.a.gpu.1",
      assignedBy: "matched",
      state: "ready",
    });
  });

  it("without SKU rules answers sku_rules_not_loaded, naming the plugin to add; lists still work", async () => {
    const bare = new SkuService({
      database: harness.database,
      engine: harness.engine,
      logger: silentLogger,
      rules: undefined,
    });
    await host("h-12");
    for (const attempt of [
      bare.create(skuA),
      bare.generate("h-12"),
      bare.assign("x", ["h-12"]),
      bare.verify("h-12"),
    ]) {
      await expect(attempt).rejects.toMatchObject({
        code: "sku_rules_not_loaded",
        message: expect.stringMatching(/add @racksmith\/validation-sku/),
      });
    }
    expect(await bare.list()).toEqual([]);
  });
});

describe("BOM evaluation", () => {
  const reports: Array<[string, HealthReport]> = [];
  const evaluation = (config: Partial<ResolvedSkuValidationConfig> = {}) =>
    createBomValidation({
      store: new SkuStore(harness.database.db),
      rules: gpuCountRules,
      config: { ...DEFAULT_SKU_VALIDATION_CONFIG, ...config },
      recordReport: async (hostId, report) => void reports.push([hostId, report]),
      clock: () => NOW,
      logger: silentLogger,
    });
  const evaluate = async (hostId: string, config: Partial<ResolvedSkuValidationConfig> = {}) =>
    evaluation(config).evaluate({
      hostId,
      context: "discovery",
      inventory: await new SkuStore(harness.database.db).inventory(hostId),
    });
  beforeEach(() => {
    reports.length = 0;
  });

  it("passes a host matching its SKU and fails one that does not, naming what differs, in its health", async () => {
    await service.create(skuA);
    await host("h-20", { gpus: 3 });
    await service.assign(skuA.id, ["h-20"]);
    expect(await evaluate("h-20")).toEqual({
      kind: "skuVerificationFailed",
      skuId: "acme.a.gpu.1",
      mismatches: [{ component: "gpu", message: "gpu: expected 4, found 3" }],
    });
    expect(reports).toEqual([
      [
        "h-20",
        {
          source: "sku-validation",
          observedAt: NOW.toISOString(),
          successes: [],
          alerts: [
            {
              id: "SkuValidation",
              target: "acme.a.gpu.1",
              message: "the host does not match SKU acme.a.gpu.1: gpu: expected 4, found 3",
              classifications: ["PreventAllocations"],
            },
          ],
        },
      ],
    ]);
    expect((await service.hostSku("h-20")).verdict).toMatchObject({ kind: "skuVerificationFailed" });

    await host("h-21");
    await service.assign(skuA.id, ["h-21"]);
    expect(await evaluate("h-21")).toEqual({ kind: "passed", skuId: "acme.a.gpu.1" });
    expect(reports.at(-1)?.[1]).toMatchObject({
      alerts: [],
      successes: [{ id: "SkuValidation", target: "acme.a.gpu.1" }],
    });
  });

  it.each<[string, Partial<ResolvedSkuValidationConfig>, string, object]>([
    ["waits for a SKU its expected machine names that does not exist", {}, "skuMissing", { skuId: "exp.1" }],
    [
      "creates that SKU from the host with autoGenerateMissing",
      { autoGenerateMissing: true },
      "passed",
      { skuId: "exp.1" },
    ],
  ])("%s", async (_name, config, kind, rest) => {
    await host("h-22", { expectedSku: "exp.1" });
    expect(await evaluate("h-22", config)).toEqual({ kind, ...rest });
    const shown = await service.hostSku("h-22");
    expect(shown.assignedBy).toBe(kind === "passed" ? "expectedMachine" : null);
  });

  it("assigns the first stored SKU a host without one matches; else it waits, or passes when the site ignores such hosts", async () => {
    await service.create({ id: "b.2", model: "B", gpus: 2 });
    await service.create(skuA);
    await host("h-23", {
      state: { state: "bomValidating", context: "discovery", bomState: { step: "verifyingSku" } },
    });
    expect(await evaluate("h-23")).toEqual({ kind: "passed", skuId: "acme.a.gpu.1" });
    expect((await service.hostSku("h-23")).assignedBy).toBe("matched");

    await host("h-24", { model: "C" });
    expect(await evaluate("h-24")).toEqual({ kind: "waitingForSkuAssignment" });
    expect(reports.at(-1)?.[1].alerts).toMatchObject([{ id: "SkuValidation", target: "unassigned" }]);
    expect(await evaluate("h-24", { ignoreUnassignedMachines: true })).toEqual({
      kind: "passed",
      skuId: null,
    });
  });

  it("fails a host with a SKU but no inventory, saying so", async () => {
    await service.create(skuA);
    await host("h-25", { gpus: null });
    await service.assign(skuA.id, ["h-25"]);
    expect(await evaluate("h-25")).toMatchObject({
      kind: "skuVerificationFailed",
      mismatches: [
        { component: "inventory", message: "the host agent has not reported the host's inventory" },
      ],
    });
  });
});
