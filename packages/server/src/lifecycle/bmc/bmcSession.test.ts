import type { BmcDriverDefinition } from "@racksmith/core";
import { redfishStandardDriver, silentLogger } from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MachineRow } from "../../explorer/index.js";
import { MemoryCredentialStore } from "../../inventory/credentials/memoryCredentialStore.js";
import { openTestDatabase, type TestDatabase } from "../../testing/index.js";
import { createBmcAccess } from "./bmcSession.js";
import { ServiceProbeCache } from "./serviceProbeCache.js";

const ADDRESS = "10.0.0.9";
const machine: MachineRow = {
  id: "h-1",
  kind: "host",
  serial: "SER-1",
  bmc_address: ADDRESS,
  bmc_mac: "02:00:00:00:00:09",
  host_id: null,
  host_facing_mac: null,
  primary_dpu: false,
  vendor: null,
  model: null,
  created_at: new Date(),
};

/** A definition whose drivers only say which definition made them. */
const named = (name: string): BmcDriverDefinition => ({
  ...redfishStandardDriver,
  name,
  create: () => ({ name }) as unknown as ReturnType<BmcDriverDefinition["create"]>,
});

let testDb: TestDatabase;
let probes: ServiceProbeCache;
const credentials = new MemoryCredentialStore();

beforeAll(async () => {
  testDb = await openTestDatabase("bmc_session");
  await credentials.set({ kind: "bmc", mac: machine.bmc_mac }, { username: "root", password: "secret" });
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  probes = new ServiceProbeCache();
  await testDb.database.db.deleteFrom("explored_endpoints").execute();
});

const recordDriver = async (driver: string | null) => {
  const now = new Date();
  await testDb.database.db
    .insertInto("explored_endpoints")
    .values({ address: ADDRESS, driver, findings: "[]", created_at: now, updated_at: now })
    .onConflict((oc) => oc.column("address").doUpdateSet({ driver }))
    .execute();
};

/** The name of the driver one session opens for the machine, and the statements it took. */
async function openedDriver(
  cache: ServiceProbeCache | null = probes,
): Promise<{ name: string; statements: number }> {
  const access = createBmcAccess({
    database: testDb.database.db,
    connector: (address, login) =>
      new RedfishClient({ address: `http://${address}`, ...(login ? { credentials: login } : {}) }),
    credentials,
    drivers: () => [named("dell"), named("hpe")],
    fallback: named("standard"),
    driverSettings: () => undefined,
    logger: silentLogger,
    ...(cache ? { probes: cache } : {}),
  });
  const before = testDb.database.statements().statements;
  const session = access(new AbortController().signal);
  try {
    const driver = (await session.of(machine)) as unknown as { name: string };
    return { name: driver.name, statements: testDb.database.statements().statements - before };
  } finally {
    await session.close();
  }
}

describe("createBmcAccess", () => {
  it("reads the explorer's driver once while the BMC's description is kept, again once it is dropped", async () => {
    await recordDriver("dell");
    expect(await openedDriver()).toEqual({ name: "dell", statements: 1 });
    await recordDriver("hpe");
    expect(await openedDriver()).toEqual({ name: "dell", statements: 0 });
    probes.delete(ADDRESS);
    expect(await openedDriver()).toEqual({ name: "hpe", statements: 1 });
  });

  it("does not keep the fallback: the explorer's choice is used as soon as it is recorded", async () => {
    await recordDriver(null);
    expect((await openedDriver()).name).toBe("standard");
    await recordDriver("hpe");
    expect((await openedDriver()).name).toBe("hpe");
  });

  it("reads the driver at every session without a cache", async () => {
    await recordDriver("dell");
    expect(await openedDriver(null)).toEqual({ name: "dell", statements: 1 });
    expect(await openedDriver(null)).toEqual({ name: "dell", statements: 1 });
  });
});
