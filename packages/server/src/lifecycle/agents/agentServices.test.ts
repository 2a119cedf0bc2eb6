import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AgentEventResponse__Output } from "../../api/grpc/generated/racksmith/v1/AgentEventResponse.js";
import type { DpuAgentClient } from "../../api/grpc/generated/racksmith/v1/DpuAgent.js";
import type { HostAgentClient } from "../../api/grpc/generated/racksmith/v1/HostAgent.js";
import type { ManagedHostNetworkConfig__Output } from "../../api/grpc/generated/racksmith/v1/ManagedHostNetworkConfig.js";
import { type ApiHarness, call, grpcFailure, startApiHarness } from "../../testing/index.js";
import type { HostTestRuns } from "../hostTests/index.js";
import type { DpuNetworkObservation } from "../tables.js";
import { clearSite, insertHost, parkedManagedHostMachine, placeHost } from "./__fixtures__/site.js";
import { agentGrpcServices } from "./grpcService.js";

let api: ApiHarness;
let host: HostAgentClient;
let dpu: DpuAgentClient;
let now = new Date("2026-03-01T12:00:00.000Z");
let hostTestRuns: HostTestRuns | undefined;

const HOST = "h-1";
const DPU1 = "d-1";
const DPU2 = "d-2";

beforeAll(async () => {
  api = await startApiHarness({
    name: "agents",
    machines: [parkedManagedHostMachine()],
    apis: (context) => ({
      grpc: agentGrpcServices({
        ...context,
        clock: () => now,
        hostAgentValidation: true,
        hostTestRuns: () => hostTestRuns,
      }),
    }),
  });
  host = api.client<HostAgentClient>("racksmith.v1.HostAgent", "racksmith/v1/agents.proto");
  dpu = api.client<DpuAgentClient>("racksmith.v1.DpuAgent", "racksmith/v1/agents.proto");
});
afterAll(() => api?.close());
beforeEach(async () => {
  await clearSite(api.database);
  api.enqueued.length = 0;
  hostTestRuns = undefined;
  now = new Date("2026-03-01T12:00:00.000Z");
  await insertHost(api.database, {
    id: HOST,
    serial: "HOST-SERIAL",
    dpus: [
      { id: DPU1, hostFacingMac: "B8:3F:D2:00:00:01", primary: true },
      { id: DPU2, hostFacingMac: "B8:3F:D2:00:00:02" },
    ],
  });
  await placeHost(
    api.engine,
    api.database,
    HOST,
    { state: "hostInit", machineState: { step: "waitingForDiscovery" } },
    new Date("2026-03-01T11:00:00Z"),
  );
});

const inventory = (serial: string, macs: string[] = []) => ({
  serial,
  vendor: "Contoso",
  model: "R1",
  cpus: [{ model: "x", cores: 32, threads: 64 }],
  memoryBytes: "549755813888",
  nics: macs.map((mac, i) => ({ name: `eth${i}`, mac, model: "CX7", pciAddress: `0000:${i}` })),
  disks: [{ name: "nvme0n1", model: "m", serial: "ds", sizeBytes: 3_840_000_000_000 }],
  gpus: [],
  ibPorts: [],
});

async function reportOf(machineId: string) {
  return api.database.db
    .selectFrom("machine_reports")
    .selectAll()
    .where("machine_id", "=", machineId)
    .executeTakeFirst();
}

describe("HostAgent.DiscoverMachine", () => {
  it("identifies a host by serial and stores the inventory; a host waiting for discovery is not run for it", async () => {
    const found = await call((cb) => host.DiscoverMachine({ inventory: inventory("HOST-SERIAL") }, cb));
    expect(found).toEqual({ machineId: HOST, kind: "host", certificate: null });
    const stored = await reportOf(HOST);
    expect(stored?.inventory).toMatchObject({ serial: "HOST-SERIAL", memoryBytes: 549755813888 });
    expect(stored?.inventory?.disks[0]?.sizeBytes).toBe(3_840_000_000_000);
    expect(stored?.discovered_at).toEqual(now);
    expect(stored?.last_contact_at).toEqual(now);
    expect(api.enqueued).toEqual([]);
  });

  it("runs a host whose state reads the inventory (updating it for BOM validation)", async () => {
    await placeHost(api.engine, api.database, HOST, {
      state: "bomValidating",
      context: "onDemand",
      bomState: { step: "updatingInventory" },
    });
    await call((cb) => host.DiscoverMachine({ inventory: inventory("HOST-SERIAL") }, cb));
    expect(api.enqueued).toEqual([HOST]);
  });

  it("identifies a DPU by serial, and runs its host for the DPU's report when that host reads it", async () => {
    await placeHost(api.engine, api.database, HOST, {
      state: "validation",
      context: "discovery",
    });
    const found = await call((cb) => host.DiscoverMachine({ inventory: inventory(`SER-${DPU2}`) }, cb));
    expect(found).toEqual({ machineId: DPU2, kind: "dpu", certificate: null });
    expect(api.enqueued).toEqual([HOST]);
  });

  it("falls back to a NIC MAC that is a DPU's host-facing MAC, whatever its case and separators", async () => {
    const found = await call((cb) =>
      host.DiscoverMachine({ inventory: inventory("OTHER", ["aa:aa:aa:aa:aa:aa", "b8-3f-d2-00-00-02"]) }, cb),
    );
    expect(found).toEqual({ machineId: HOST, kind: "host", certificate: null });
  });

  it("answers NOT_FOUND naming the serial when nothing matches", async () => {
    const error = await grpcFailure(
      call((cb) => host.DiscoverMachine({ inventory: inventory("NOPE", ["aa:aa:aa:aa:aa:aa"]) }, cb)),
    );
    expect(error).toMatchObject({ code: 5, errorCode: "machine_not_identified" });
    expect(error.details).toContain('"NOPE"');
    expect(api.enqueued).toEqual([]);
  });

  it("refuses a request without inventory", async () => {
    const error = await grpcFailure(call((cb) => host.DiscoverMachine({}, cb)));
    expect(error).toMatchObject({ code: 3, details: "inventory is required" });
  });
});

describe("HostAgent events and AgentControl", () => {
  it("moves the stored contact time on a poll at most every 5 s, and on every report", async () => {
    const poll = () => call((cb) => host.AgentControl({ machineId: HOST }, cb));
    const contact = async () => (await reportOf(HOST))?.last_contact_at;
    // Later than any other test's calls: the service remembers its last write across them.
    const at = (seconds: number) => new Date(Date.parse("2026-03-02T12:00:00.000Z") + seconds * 1_000);
    now = at(0);
    await poll();
    expect(await contact()).toEqual(at(0));
    now = at(4.9);
    await poll();
    expect(await contact()).toEqual(at(0));
    now = at(5);
    await poll();
    expect(await contact()).toEqual(at(5));
    now = at(6);
    await call((cb) => host.RebootCompleted({ machineId: HOST }, cb));
    expect(await contact()).toEqual(at(6));
  });

  it("asks for discovery, then noop once discovery completed after the state was entered", async () => {
    expect(await call((cb) => host.AgentControl({ machineId: HOST }, cb))).toEqual({
      action: "discovery",
      validationContext: "",
      validationRunId: "",
      tests: [],
    });
    const recorded = await call<AgentEventResponse__Output>((cb) =>
      host.DiscoveryCompleted({ machineId: HOST }, cb),
    );
    expect(recorded.recordedAt?.seconds).toBe(String(now.getTime() / 1000));
    expect(api.enqueued).toEqual([HOST]);
    expect(await call((cb) => host.AgentControl({ machineId: HOST }, cb))).toMatchObject({ action: "noop" });
    expect((await reportOf(HOST))?.discovery_completed_at).toEqual(now);
  });

  it("gives a DPU nothing to do", async () => {
    expect(await call((cb) => host.AgentControl({ machineId: DPU1 }, cb))).toMatchObject({ action: "noop" });
  });

  it("asks for validation with its context when the host agent validates", async () => {
    await placeHost(
      api.engine,
      api.database,
      HOST,
      { state: "validation", context: "discovery" },
      new Date("2026-03-01T11:00:00Z"),
    );
    // Without host tests: the agent's own, with no run.
    expect(await call((cb) => host.AgentControl({ machineId: HOST }, cb))).toEqual({
      action: "validation",
      validationContext: "discovery",
      validationRunId: "",
      tests: [],
    });
    await call((cb) =>
      host.ValidationCompleted(
        {
          machineId: HOST,
          context: "discovery",
          passed: false,
          results: [{ name: "dcgm", passed: false, message: "GPU 3 fell off the bus", durationMs: 1200 }],
        },
        cb,
      ),
    );
    const stored = await reportOf(HOST);
    expect(stored?.validation_result).toEqual({
      context: "discovery",
      passed: false,
      results: [{ name: "dcgm", passed: false, message: "GPU 3 fell off the bus", durationMs: 1200 }],
      runBy: "host-agent",
    });
    expect(await call((cb) => host.AgentControl({ machineId: HOST }, cb))).toMatchObject({ action: "noop" });
  });

  it("records reboots and cleanups with their result; each runs the host only in a state that reads it", async () => {
    await call((cb) => host.RebootCompleted({ machineId: HOST }, cb));
    now = new Date("2026-03-01T12:05:00.000Z");
    await call((cb) => host.CleanupCompleted({ machineId: HOST, success: false, message: "nvme1 busy" }, cb));
    const stored = await reportOf(HOST);
    expect(stored?.reboot_completed_at).toEqual(new Date("2026-03-01T12:00:00.000Z"));
    expect(stored?.cleanup_completed_at).toEqual(now);
    expect(stored?.cleanup_result).toEqual({ success: false, message: "nvme1 busy" });
    expect(stored?.last_contact_at).toEqual(now);
    // Waiting for the agent's discovery to complete, the host reads neither.
    expect(api.enqueued).toEqual([]);

    await placeHost(api.engine, api.database, HOST, { state: "discovered", skipRebootWait: false });
    await call((cb) => host.RebootCompleted({ machineId: HOST }, cb));
    await call((cb) => host.CleanupCompleted({ machineId: HOST, success: true, message: "" }, cb));
    expect(api.enqueued).toEqual([HOST]);
    await placeHost(api.engine, api.database, HOST, {
      state: "waitingForCleanup",
      cleanupState: { step: "hostCleanup" },
    });
    await call((cb) => host.CleanupCompleted({ machineId: HOST, success: true, message: "" }, cb));
    expect(api.enqueued).toEqual([HOST, HOST]);
  });

  it("answers NOT_FOUND for an unknown machine and INVALID_ARGUMENT for bad input", async () => {
    expect(await grpcFailure(call((cb) => host.RebootCompleted({ machineId: "ghost" }, cb)))).toMatchObject({
      code: 5,
      errorCode: "machine_not_found",
    });
    expect(await grpcFailure(call((cb) => host.AgentControl({ machineId: "" }, cb)))).toMatchObject({
      code: 3,
      details: "machine_id is required",
    });
    expect(
      await grpcFailure(
        call((cb) => host.ValidationCompleted({ machineId: HOST, context: "", results: [] }, cb)),
      ),
    ).toMatchObject({ code: 3, details: "context is required" });
    expect(
      await grpcFailure(
        call((cb) =>
          host.ValidationCompleted({ machineId: HOST, context: "discovery", results: [{ name: "" }] }, cb),
        ),
      ),
    ).toMatchObject({ code: 3, details: "results[0].name is required" });
    expect(api.enqueued).toEqual([]);
  });
});

describe("DpuAgent", () => {
  async function setHostNetwork(useAdminNetwork: boolean, version: number) {
    await api.database.db
      .insertInto("managed_hosts")
      .values({
        host_id: HOST,
        use_admin_network: useAdminNetwork,
        network_config_version: version,
        updated_at: now,
      })
      .execute();
  }

  it("serves the admin network by default (no managed_hosts row)", async () => {
    const config = await call<ManagedHostNetworkConfig__Output>((cb) =>
      dpu.GetManagedHostNetworkConfig({ dpuId: DPU1 }, cb),
    );
    expect(config).toMatchObject({
      dpuId: DPU1,
      hostId: HOST,
      managedHostConfigVersion: "1",
      useAdminNetwork: true,
      adminInterface: { function: "pf0", network: "admin" },
      tenantInterfaces: [],
    });
    expect(config.instanceId).toBeUndefined();
  });

  it("serves the live instance's interfaces to the primary DPU only, once off the admin network", async () => {
    await setHostNetwork(false, 3);
    await api.database.db
      .insertInto("instances")
      .values({
        id: "i-1",
        name: "i-1",
        machine_id: HOST,
        tenant_org: "acme",
        instance_type: null,
        config: JSON.stringify({ network: { interfaces: [{ function: "pf0vf1", network: "blue" }] } }),
        config_version: 2,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const primary = await call<ManagedHostNetworkConfig__Output>((cb) =>
      dpu.GetManagedHostNetworkConfig({ dpuId: DPU1 }, cb),
    );
    expect(primary).toMatchObject({
      managedHostConfigVersion: "3",
      useAdminNetwork: false,
      tenantInterfaces: [{ function: "pf0vf1", network: "blue" }],
      instanceId: "i-1",
      instanceConfigVersion: "2",
    });
    const secondary = await call<ManagedHostNetworkConfig__Output>((cb) =>
      dpu.GetManagedHostNetworkConfig({ dpuId: DPU2 }, cb),
    );
    expect(secondary).toMatchObject({ tenantInterfaces: [], instanceId: "i-1" });
  });

  it("answers NOT_FOUND for an unknown DPU or a host id, so the agent isolates the host", async () => {
    expect(
      await grpcFailure(call((cb) => dpu.GetManagedHostNetworkConfig({ dpuId: "ghost" }, cb))),
    ).toMatchObject({
      code: 5,
      errorCode: "dpu_not_found",
    });
    const hostId = await grpcFailure(call((cb) => dpu.GetManagedHostNetworkConfig({ dpuId: HOST }, cb)));
    expect(hostId).toMatchObject({ code: 5, errorCode: "dpu_not_found" });
    expect(hostId.details).toContain("is a host");
    expect(
      await grpcFailure(
        call((cb) => dpu.RecordDpuNetworkStatus({ dpuId: "ghost", appliedManagedHostConfigVersion: 1 }, cb)),
      ),
    ).toMatchObject({ code: 5 });
  });

  it("stores the network status with the DPU agent's health, observed now, and enqueues the host", async () => {
    await call((cb) =>
      dpu.RecordDpuNetworkStatus(
        {
          dpuId: DPU2,
          appliedManagedHostConfigVersion: 3,
          appliedInstanceConfigVersion: 2,
          interfaces: [{ function: "pf0", network: "admin", linkUp: true }],
          health: {
            source: "something-else",
            observedAt: { seconds: 1, nanos: 0 },
            alerts: [
              {
                id: "BgpDown",
                message: "no BGP session",
                classifications: ["PreventAllocations"],
                inAlertSince: { seconds: 1_772_366_400, nanos: 0 },
              },
            ],
          },
          agentVersion: "2.1.0",
        },
        cb,
      ),
    );
    const stored = await reportOf(DPU2);
    const expected: DpuNetworkObservation = {
      observedAt: now.toISOString(),
      appliedManagedHostConfigVersion: 3,
      appliedInstanceConfigVersion: 2,
      interfaces: [{ function: "pf0", network: "admin", linkUp: true }],
      health: {
        source: "forge-dpu-agent",
        observedAt: now.toISOString(),
        successes: [],
        alerts: [
          {
            id: "BgpDown",
            message: "no BGP session",
            classifications: ["PreventAllocations"],
            inAlertSince: "2026-03-01T12:00:00.000Z",
          },
        ],
      },
      agentVersion: "2.1.0",
    };
    expect(stored?.network_status).toEqual(expected);
    expect(stored?.network_status_at).toEqual(now);
    expect(api.enqueued).toEqual([HOST]);
  });

  it("stores every status, and wakes the host for a repeated one at most every 5 s but for a change at once", async () => {
    const report = (version: number) =>
      call((cb) => dpu.RecordDpuNetworkStatus({ dpuId: DPU1, appliedManagedHostConfigVersion: version }, cb));
    // An hour on: nothing this process woke DPU1's host for in earlier tests counts as recent.
    const start = new Date(now.getTime() + 3_600_000);
    now = start;
    await report(1);
    expect(api.enqueued).toEqual([HOST]);
    now = new Date(start.getTime() + 4_000);
    await report(1);
    expect((await reportOf(DPU1))?.network_status_at).toEqual(now);
    expect(api.enqueued).toEqual([HOST]);
    await report(2);
    expect((await reportOf(DPU1))?.network_status).toMatchObject({ appliedManagedHostConfigVersion: 2 });
    expect(api.enqueued).toEqual([HOST, HOST]);
    now = new Date(start.getTime() + 9_000);
    await report(2);
    expect(api.enqueued).toEqual([HOST, HOST, HOST]);
  });

  it.each([
    ["Ready", { state: "ready" }],
    ["Ready for its tenant", { state: "assigned", instanceId: "i-1", instanceState: { step: "ready" } }],
  ] as const)("does not wake a host %s for a repeated status, only for a change", async (_, state) => {
    await placeHost(api.engine, api.database, HOST, state, new Date("2026-03-01T11:00:00Z"));
    const report = (version: number) =>
      call((cb) => dpu.RecordDpuNetworkStatus({ dpuId: DPU1, appliedManagedHostConfigVersion: version }, cb));
    // Two hours on: nothing this process woke DPU1's host for in earlier tests counts as recent.
    const start = new Date(now.getTime() + 7_200_000);
    now = start;
    await report(1);
    const woken = api.enqueued.length;
    now = new Date(start.getTime() + 60_000);
    await report(1);
    expect((await reportOf(DPU1))?.network_status_at).toEqual(now);
    expect(api.enqueued).toHaveLength(woken);
    await report(2);
    expect(api.enqueued).toHaveLength(woken + 1);
  });

  it("stores a status without an instance version as null", async () => {
    await call((cb) => dpu.RecordDpuNetworkStatus({ dpuId: DPU1, appliedManagedHostConfigVersion: 1 }, cb));
    expect((await reportOf(DPU1))?.network_status).toMatchObject({
      appliedInstanceConfigVersion: null,
      health: { source: "forge-dpu-agent", alerts: [], successes: [] },
    });
  });

  it("refuses an alert without an id, and an empty DPU id", async () => {
    expect(
      await grpcFailure(
        call((cb) =>
          dpu.RecordDpuNetworkStatus(
            {
              dpuId: DPU1,
              appliedManagedHostConfigVersion: 1,
              health: { alerts: [{ id: "", message: "x" }] },
            },
            cb,
          ),
        ),
      ),
    ).toMatchObject({ code: 3, details: "health.alerts[0].id is required" });
    expect(await grpcFailure(call((cb) => dpu.RecordDpuNetworkStatus({ dpuId: "" }, cb)))).toMatchObject({
      code: 3,
      details: "dpu_id is required",
    });
  });
});

describe("host tests through the host agent API", () => {
  const spec = {
    id: "t-1",
    name: "t-1",
    command: "stress-ng",
    args: ["--cpu", "0"],
    timeoutMs: 5_000,
    version: "v1",
    enabled: true,
    verified: true,
    platforms: [],
    skus: [],
    contexts: ["cleanup" as const],
    description: "",
  };
  const judged = {
    context: "cleanup",
    passed: false,
    runBy: "host-tests",
    results: [{ name: "t-1", passed: false, message: "exit code 3", durationMs: 2_000 }],
  };

  it("hands a host in validation its run's tests, and records the run's report through the host tests", async () => {
    const reported: unknown[] = [];
    hostTestRuns = {
      ensureRun: async () => null,
      pendingRun: async () => ({ runId: "r-1", context: "cleanup", tests: [spec] }),
      recordOutcomes: async (hostId, runId, outcomes) => {
        reported.push({ hostId, runId, outcomes });
        return judged;
      },
      onDemandRequested: async () => false,
    };
    await placeHost(api.engine, api.database, HOST, { state: "validation", context: "cleanup" });
    const control = await call((cb) => host.AgentControl({ machineId: HOST }, cb));
    expect(control).toMatchObject({
      action: "validation",
      validationContext: "cleanup",
      validationRunId: "r-1",
      tests: [{ id: "t-1", command: "stress-ng", args: ["--cpu", "0"], timeoutMs: "5000" }],
    });
    const at = (iso: string) => ({ seconds: String(Date.parse(iso) / 1000), nanos: 0 });
    await call((cb) =>
      host.ValidationCompleted(
        {
          machineId: HOST,
          context: "cleanup",
          runId: "r-1",
          results: [
            {
              name: "t-1",
              exitCode: 3,
              stderr: "fan 3: 0 RPM",
              startedAt: at("2026-03-01T12:00:00Z"),
              endedAt: at("2026-03-01T12:00:02Z"),
              timedOut: false,
            },
          ],
        },
        cb,
      ),
    );
    expect(reported).toEqual([
      {
        hostId: HOST,
        runId: "r-1",
        outcomes: [
          {
            testId: "t-1",
            exitCode: 3,
            stdout: "",
            stderr: "fan 3: 0 RPM",
            startedAt: "2026-03-01T12:00:00.000Z",
            endedAt: "2026-03-01T12:00:02.000Z",
            timedOut: false,
          },
        ],
      },
    ]);
    expect((await reportOf(HOST))?.validation_result).toEqual(judged);
    expect(api.enqueued).toContain(HOST);
  });

  it("refuses a run's report while no plugin registers host test rules", async () => {
    const failure = await grpcFailure(
      call((cb) =>
        host.ValidationCompleted({ machineId: HOST, context: "cleanup", runId: "r-1", results: [] }, cb),
      ),
    );
    expect(failure).toMatchObject({ code: 9, errorCode: "host_tests_not_loaded" });
  });
});
