import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../testing/index.js";
import { loadManagedHost } from "./snapshot.js";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase("snapshot");
  const { db } = testDb.database;
  let n = 0;
  const machine = (id: string, kind: "host" | "dpu", hostId: string | null, primary = false) => ({
    id,
    kind,
    serial: `sn-${id}`,
    bmc_address: `10.0.0.${++n}`,
    bmc_mac: `02:00:00:00:00:${n.toString(16).padStart(2, "0")}`,
    host_id: hostId,
    host_facing_mac: null,
    primary_dpu: primary,
    vendor: "Dell Inc.",
    model: null,
    created_at: new Date("2026-01-02T03:04:05.678Z"),
  });
  await db
    .insertInto("machines")
    .values([
      machine("h1", "host", null),
      machine("h1-dpu1", "dpu", "h1"),
      machine("h1-dpu0", "dpu", "h1", true),
      machine("h1-dpu2", "dpu", "h1"),
      machine("h2", "host", null),
      machine("h3", "host", null),
    ])
    .execute();
  await db
    .insertInto("managed_hosts")
    .values({
      host_id: "h1",
      use_admin_network: false,
      network_config_version: 7,
      force_delete_requested_at: new Date("2026-03-04T05:06:07.089Z"),
      updated_at: new Date(),
    })
    .execute();
  // Times with microseconds, as PostgreSQL keeps them (now() has them): both readings must agree on them.
  await sql`
    insert into machine_reports (machine_id, inventory, discovered_at, network_status, network_status_at,
      last_reboot_request, updated_at)
    values
      ('h1', '{"cpus": 2}', '2026-05-06 07:08:09.123456+00', null, null,
        '{"at": "2026-05-06T07:08:09Z", "action": "ForceRestart"}', now()),
      ('h1-dpu0', null, null, '{"observedAt": "x", "interfaces": []}', '2026-05-06 07:08:10.999999+00', null,
        '2026-05-06 07:08:11.5+00')
  `.execute(db);
  const instance = (id: string, machineId: string, terminated: Date | null) => ({
    id,
    name: id,
    machine_id: machineId,
    tenant_org: "acme",
    instance_type: null,
    config: JSON.stringify({ interfaces: [{ function: "pf0", network: "n1" }] }),
    config_version: 3,
    release_requested_at: null,
    release_issue: null,
    terminated_at: terminated,
    created_at: new Date("2026-06-07T08:09:10.111Z"),
    updated_at: new Date("2026-06-07T08:09:10.222Z"),
  });
  await db
    .insertInto("instances")
    .values([
      instance("i-old", "h1", new Date("2026-06-01T00:00:00Z")),
      instance("i-live", "h1", null),
      instance("i-h3", "h3", null),
    ])
    .execute();
});
afterAll(async () => {
  await testDb.close();
});

/** The snapshot as separate typed reads (how it was loaded before it was one statement). */
async function readSeparately(id: string) {
  const { db } = testDb.database;
  const machines = await db
    .selectFrom("machines")
    .selectAll()
    .where((eb) => eb.or([eb("id", "=", id), eb("host_id", "=", id)]))
    .execute();
  const managed = await db
    .selectFrom("managed_hosts")
    .selectAll()
    .where("host_id", "=", id)
    .executeTakeFirst();
  const reports = await db
    .selectFrom("machine_reports")
    .selectAll()
    .where(
      "machine_id",
      "in",
      machines.map((m) => m.id),
    )
    .execute();
  const instance = await db
    .selectFrom("instances")
    .selectAll()
    .where("machine_id", "=", id)
    .where("terminated_at", "is", null)
    .executeTakeFirst();
  return { machines, managed, reports, instance };
}

describe("loadManagedHost", () => {
  it.each([
    ["a host with DPUs, reports, settings and a terminated and a live instance", "h1"],
    ["a host with nothing but its row", "h2"],
    ["a host with an instance and no settings", "h3"],
  ])("reads %s in one statement as separate reads would", async (_, id) => {
    const snapshot = await loadManagedHost(id, testDb.database.db);
    const separately = await readSeparately(id);
    expect(snapshot).toBeDefined();
    expect(snapshot?.host).toEqual(separately.machines.find((m) => m.id === id));
    expect(snapshot?.dpus).toEqual(
      separately.machines
        .filter((m) => m.host_id === id)
        .sort((a, b) => Number(b.primary_dpu) - Number(a.primary_dpu) || a.id.localeCompare(b.id)),
    );
    expect(snapshot?.useAdminNetwork).toBe(separately.managed?.use_admin_network ?? true);
    expect(snapshot?.networkConfigVersion).toBe(separately.managed?.network_config_version ?? 1);
    expect(snapshot?.forceDeleteRequestedAt).toEqual(separately.managed?.force_delete_requested_at ?? null);
    expect(snapshot?.reports).toEqual(new Map(separately.reports.map((r) => [r.machine_id, r])));
    expect(snapshot?.instance).toEqual(separately.instance);
  });

  it("orders the primary DPU first, and finds what the host has", async () => {
    const snapshot = await loadManagedHost("h1", testDb.database.db);
    expect(snapshot?.dpus.map((d) => d.id)).toEqual(["h1-dpu0", "h1-dpu1", "h1-dpu2"]);
    expect(snapshot?.instance?.id).toBe("i-live");
    expect([...(snapshot?.reports.keys() ?? [])].sort()).toEqual(["h1", "h1-dpu0"]);
    expect(snapshot?.reports.get("h1")?.discovered_at).toBeInstanceOf(Date);
    expect(snapshot?.forceDeleteRequestedAt).toEqual(new Date("2026-03-04T05:06:07.089Z"));
  });

  it("is undefined for a DPU's id and for a machine that does not exist", async () => {
    expect(await loadManagedHost("h1-dpu0", testDb.database.db)).toBeUndefined();
    expect(await loadManagedHost("nope", testDb.database.db)).toBeUndefined();
  });
});
