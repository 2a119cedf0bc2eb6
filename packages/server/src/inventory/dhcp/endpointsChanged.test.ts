import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../../config/index.js";
import { channelName } from "../../db/index.js";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../../testing/testDatabase.js";
import { BMC_ENDPOINTS_CHANGED_TOPIC, type ExpectedMachineInput } from "../contracts.js";
import { MemoryCredentialStore } from "../credentials/index.js";
import { type InventoryService, openInventory } from "../openInventory.js";

const mac = (n: number) => `AA:BB:CC:00:00:${n.toString(16).padStart(2, "0").toUpperCase()}`;
const machine = (n: number, extra: Partial<ExpectedMachineInput> = {}): ExpectedMachineInput => ({
  bmcMac: mac(n),
  chassisSerial: `SN-${n}`,
  ...extra,
});
const END = "end-of-step";

describe(`BMC endpoint announcements on ${TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  let testDb: TestDatabase;
  let inventory: InventoryService;
  let channel: string;
  let stopListening: () => Promise<void>;
  let heard: string[] = [];

  beforeAll(async () => {
    testDb = await openTestDatabase("endpointschanged");
    const config: LoadedConfig = {
      config: { ...structuredClone(DEFAULT_CONFIG), inventory: { dhcp: { underlayPool: "10.0.0.0/24" } } },
      file: undefined,
      baseDir: process.cwd(),
    };
    inventory = await openInventory({
      database: testDb.database,
      config,
      credentials: new MemoryCredentialStore(),
    });
    channel = channelName(BMC_ENDPOINTS_CHANGED_TOPIC, testDb.schema);
    stopListening = await testDb.database.listen(channel, (payload) => heard.push(payload));
  });
  afterAll(async () => {
    await stopListening?.();
    await testDb?.close();
  });
  beforeEach(async () => {
    await testDb.database.db.deleteFrom("expected_machines").execute();
    await testDb.database.db.deleteFrom("dhcp_leases").execute();
    heard = [];
  });

  /**
   * What the channel carried while `step` ran: a marker sent after it arrives after anything the step sent
   * (one listening connection, notifications in commit order), so an empty answer means none was sent.
   */
  async function announced(step: () => Promise<unknown>): Promise<string[]> {
    heard = [];
    await step();
    await testDb.database.notify(channel, END);
    // No deadline of its own (vi.waitFor's default is 1 s): the test's timeout is the only bound.
    await vi.waitFor(() => expect(heard, "the marker notification").toContain(END), {
      timeout: 60_000,
      interval: 5,
    });
    return heard.filter((payload) => payload !== END);
  }

  it("announces a MAC's first lease and a new address, never a renewal", async () => {
    expect(await announced(() => inventory.discoverDhcp({ mac: mac(1) }))).toEqual([mac(1)]);
    expect(await announced(() => inventory.discoverDhcp({ mac: mac(1) }))).toEqual([]);
    expect(
      await announced(() => inventory.discoverDhcp({ mac: mac(1), vendorClass: "iDRAC", relay: "10.1.0.1" })),
    ).toEqual([]);

    // An expected machine's static address replaces the pool address: announced, and so is the lease moving.
    expect(
      await announced(() => inventory.addExpectedMachine(machine(1, { bmcAddress: "10.9.0.1" }))),
    ).toEqual([mac(1)]);
    expect(await announced(() => inventory.discoverDhcp({ mac: mac(1) }))).toEqual([mac(1)]);
    expect(await announced(() => inventory.discoverDhcp({ mac: mac(1) }))).toEqual([]);
    // Dropping the static address brings the pool address back on the next discovery.
    expect(await announced(() => inventory.updateExpectedMachine(mac(1), machine(1)))).toEqual([]);
    expect(await announced(() => inventory.discoverDhcp({ mac: mac(1) }))).toEqual([mac(1)]);
  });

  it("announces an expected machine's new static address, not other changes", async () => {
    expect(await announced(() => inventory.addExpectedMachine(machine(2)))).toEqual([]);
    expect(
      await announced(() => inventory.addExpectedMachine(machine(3, { bmcAddress: "10.9.0.3" }))),
    ).toEqual([mac(3)]);
    expect(
      await announced(() =>
        inventory.updateExpectedMachine(
          mac(3),
          machine(3, { bmcAddress: "10.9.0.3", labels: { rack: "r1" } }),
        ),
      ),
    ).toEqual([]);
    expect(
      await announced(() => inventory.updateExpectedMachine(mac(3), machine(3, { bmcAddress: "10.9.0.33" }))),
    ).toEqual([mac(3)]);

    // Bulk: one announcement per request, naming the MAC when only one changed.
    const fleet = [4, 5, 6].map((n) => machine(n, { bmcAddress: `10.9.0.${n}` }));
    expect(await announced(() => inventory.applyExpectedMachines(fleet, { mode: "add" }))).toEqual(["*"]);
    expect(await announced(() => inventory.applyExpectedMachines(fleet, { mode: "replace-all" }))).toEqual(
      [],
    );
    const moved = fleet.map((m) => (m.bmcMac === mac(5) ? { ...m, bmcAddress: "10.9.0.55" } : m));
    expect(await announced(() => inventory.applyExpectedMachines(moved, { mode: "replace-all" }))).toEqual([
      mac(5),
    ]);

    // A rejected request commits nothing and announces nothing.
    const bad = [machine(7, { bmcAddress: "10.9.0.7" }), { bmcMac: "nope" }];
    expect(
      await announced(() => inventory.applyExpectedMachines(bad, { mode: "add" }).catch(() => undefined)),
    ).toEqual([]);
    expect(await inventory.expectedMachine(mac(7))).toBeUndefined();
  });
});
