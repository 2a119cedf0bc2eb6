import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../testing/testDatabase.js";
import type { BmcCredentials, CredentialKey, ExpectedMachineInput } from "./contracts.js";
import { MemoryCredentialStore } from "./credentials/index.js";
import { DhcpLeaseStore } from "./dhcp/index.js";
import { preferredAddress } from "./dhcp/poolStart.js";
import { type Ipv4Pool, numberToIpv4, parseIpv4Pool } from "./ipv4.js";
import { type InventoryService, openInventory } from "./openInventory.js";

const POOL = "10.0.0.0/29"; // six addresses: 10.0.0.1 – 10.0.0.6
const SECRET = "Fact0ry-S3cret!";
const mac = (n: number) => `AA:BB:CC:DD:EE:${n.toString(16).padStart(2, "0").toUpperCase()}`;
const machine = (n: number, extra: Partial<ExpectedMachineInput> = {}): ExpectedMachineInput => ({
  bmcMac: mac(n).toLowerCase(),
  chassisSerial: `SN-${n}`,
  ...extra,
});

/** A credential store that fails its next writes on demand (to prove a failed write changes nothing). */
class FlakyCredentialStore extends MemoryCredentialStore {
  failWrites = false;
  override async set(key: CredentialKey, value: BmcCredentials): Promise<void> {
    if (this.failWrites) throw new Error("disk full");
    await super.set(key, value);
  }
}

async function rejection(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error("expected a rejection");
}

describe(`inventory on ${TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  let testDb: TestDatabase;
  let credentials: FlakyCredentialStore;
  let inventory: InventoryService;

  beforeAll(async () => {
    testDb = await openTestDatabase("inventory");
    credentials = new FlakyCredentialStore();
    const config: LoadedConfig = {
      config: { ...structuredClone(DEFAULT_CONFIG), inventory: { dhcp: { underlayPool: POOL } } },
      file: undefined,
      baseDir: process.cwd(),
    };
    inventory = await openInventory({ database: testDb.database, config, credentials });
  });
  afterAll(async () => {
    await testDb?.close();
  });
  beforeEach(async () => {
    await testDb.database.db.deleteFrom("expected_machines").execute();
    await testDb.database.db.deleteFrom("dhcp_leases").execute();
    for (const key of await credentials.list()) await credentials.delete(key);
    credentials.failWrites = false;
  });

  describe("expected machines", () => {
    it("adds, reads and lists machines; the factory password goes to the credential store only", async () => {
      const added = await inventory.addExpectedMachine(
        machine(2, {
          factoryUsername: "root",
          factoryPassword: SECRET,
          labels: { rack: "r1" },
          bmcAddress: "10.9.0.2",
        }),
      );
      await inventory.addExpectedMachine(machine(1));
      expect(added).toMatchObject({
        bmcMac: mac(2),
        bmcAddress: "10.9.0.2",
        factoryUsername: "root",
        hasFactoryPassword: true,
        chassisSerial: "SN-2",
        fallbackDpuSerials: [],
        dpuMode: "dpu",
        driver: null,
        labels: { rack: "r1" },
        skuId: null,
      });
      expect(added).not.toHaveProperty("factoryPassword");
      expect(await inventory.expectedMachine(mac(2).replace(/:/g, "-"))).toEqual(added);
      expect(await inventory.expectedMachine("not a mac")).toBeUndefined();
      expect((await inventory.expectedMachines()).map((m) => m.bmcMac)).toEqual([mac(1), mac(2)]);
      expect(await credentials.get({ kind: "bmc-factory", mac: mac(2) })).toEqual({
        username: "root",
        password: SECRET,
      });
      const rows = await testDb.database.db.selectFrom("expected_machines").selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      expect(JSON.stringify(await inventory.expectedMachines())).not.toContain(SECRET);
    });

    it("refuses a known MAC (any notation) and a bad row, naming the field, storing nothing", async () => {
      await inventory.addExpectedMachine(machine(1));
      expect(
        await rejection(inventory.addExpectedMachine(machine(1, { bmcMac: "aabbccddee01" }))),
      ).toMatchObject({
        code: "expected_machine_exists",
      });
      const invalid = await rejection(
        inventory.addExpectedMachine({ bmcMac: mac(3), chassisSerial: " ", dpuMode: "x" } as never),
      );
      expect(invalid).toMatchObject({
        code: "invalid_expected_machine",
        details: { field: "chassisSerial" },
      });
      expect(invalid.message).toContain("dpuMode: must be dpu, nic, no-dpu");
      expect(await inventory.expectedMachines()).toHaveLength(1);
    });

    it("rolls the row back when its password cannot be stored", async () => {
      credentials.failWrites = true;
      await expect(
        inventory.addExpectedMachine(machine(1, { factoryUsername: "root", factoryPassword: SECRET })),
      ).rejects.toThrow("disk full");
      expect(await inventory.expectedMachines()).toEqual([]);
    });

    it("updates every field; an omitted password is kept (re-stored under a new user name), no user name clears it", async () => {
      const added = await inventory.addExpectedMachine(
        machine(1, { factoryUsername: "root", factoryPassword: SECRET, driver: "dell" }),
      );
      const updated = await inventory.updateExpectedMachine(mac(1), {
        chassisSerial: "SN-1b",
        factoryUsername: "admin",
        dpuMode: "no-dpu",
      } as ExpectedMachineInput);
      expect(updated).toMatchObject({
        bmcMac: mac(1),
        chassisSerial: "SN-1b",
        factoryUsername: "admin",
        hasFactoryPassword: true,
        dpuMode: "no-dpu",
        driver: null,
        createdAt: added.createdAt,
      });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(added.updatedAt));
      expect(await credentials.get({ kind: "bmc-factory", mac: mac(1) })).toEqual({
        username: "admin",
        password: SECRET,
      });

      const cleared = await inventory.updateExpectedMachine(mac(1), machine(1));
      expect(cleared).toMatchObject({ factoryUsername: null, hasFactoryPassword: false });
      expect(await credentials.get({ kind: "bmc-factory", mac: mac(1) })).toBeUndefined();

      expect(await rejection(inventory.updateExpectedMachine(mac(1), machine(2)))).toMatchObject({
        code: "invalid_expected_machine",
        details: { field: "bmcMac" },
      });
      expect(await rejection(inventory.updateExpectedMachine(mac(9), machine(9)))).toMatchObject({
        code: "expected_machine_not_found",
      });
      expect(await rejection(inventory.updateExpectedMachine("zz", machine(9)))).toMatchObject({
        code: "invalid_argument",
      });
    });

    it("deletes a machine with its password", async () => {
      await inventory.addExpectedMachine(machine(1, { factoryUsername: "root", factoryPassword: SECRET }));
      await inventory.deleteExpectedMachine("aa-bb-cc-dd-ee-01");
      expect(await inventory.expectedMachines()).toEqual([]);
      expect(await credentials.list()).toEqual([]);
      expect(await rejection(inventory.deleteExpectedMachine(mac(1)))).toMatchObject({
        code: "expected_machine_not_found",
      });
    });
  });

  describe("bulk requests", () => {
    it("apply nothing when a row is bad, reporting every row", async () => {
      await inventory.addExpectedMachine(machine(5));
      const rejected = await rejection(
        inventory.applyExpectedMachines(
          [
            machine(1, { factoryUsername: "root", factoryPassword: SECRET }),
            machine(2, { chassisSerial: "" }),
            machine(5),
            machine(3),
            machine(3, { chassisSerial: "other" }),
          ],
          { mode: "add" },
        ),
      );
      expect(rejected.code).toBe("expected_machines_rejected");
      expect(rejected.message).toMatch(
        /^4 of 5 expected machines rejected, nothing applied: machines\[1\] AA:BB:CC:DD:EE:02: chassisSerial/,
      );
      expect(rejected.details.results).toEqual([
        { index: 0, bmcMac: mac(1), ok: true },
        {
          index: 1,
          bmcMac: mac(2),
          ok: false,
          error: { code: "invalid_expected_machine", message: "chassisSerial: must not be empty or blank" },
        },
        {
          index: 2,
          bmcMac: mac(5),
          ok: false,
          error: { code: "expected_machine_exists", message: `bmcMac: ${mac(5)} is already expected` },
        },
        {
          index: 3,
          bmcMac: mac(3),
          ok: false,
          error: { code: "duplicate_bmc_mac", message: `bmcMac: ${mac(3)} is also in machines[4]` },
        },
        {
          index: 4,
          bmcMac: mac(3),
          ok: false,
          error: { code: "duplicate_bmc_mac", message: `bmcMac: ${mac(3)} is also in machines[3]` },
        },
      ]);
      expect((await inventory.expectedMachines()).map((m) => m.bmcMac)).toEqual([mac(5)]);
      expect(await credentials.list()).toEqual([]);
      expect(JSON.stringify(rejected)).not.toContain(SECRET);
    });

    it("with acceptPartial, apply the good rows and report the bad ones", async () => {
      await inventory.addExpectedMachine(machine(5));
      const result = await inventory.applyExpectedMachines(
        [
          machine(1, { factoryUsername: "root", factoryPassword: SECRET }),
          { bmcMac: "nope", chassisSerial: "x" },
          machine(5),
          machine(2),
        ],
        { mode: "add", acceptPartial: true },
      );
      expect(result).toEqual({
        applied: 2,
        deleted: 0,
        results: [
          { index: 0, bmcMac: mac(1), ok: true },
          {
            index: 1,
            bmcMac: "",
            ok: false,
            error: { code: "invalid_expected_machine", message: 'bmcMac: "nope" is not a MAC address' },
          },
          {
            index: 2,
            bmcMac: mac(5),
            ok: false,
            error: { code: "expected_machine_exists", message: `bmcMac: ${mac(5)} is already expected` },
          },
          { index: 3, bmcMac: mac(2), ok: true },
        ],
      });
      expect((await inventory.expectedMachines()).map((m) => [m.bmcMac, m.hasFactoryPassword])).toEqual([
        [mac(1), true],
        [mac(2), false],
        [mac(5), false],
      ]);
      expect(JSON.stringify(result)).not.toContain(SECRET);
    });

    it("replace-all deletes the others, upserts the rest and keeps what a rejected row names", async () => {
      await inventory.applyExpectedMachines(
        [
          machine(1, { factoryUsername: "root", factoryPassword: SECRET }),
          machine(2, { factoryUsername: "root", factoryPassword: SECRET }),
          machine(3),
        ],
        { mode: "add" },
      );
      const before = await inventory.expectedMachine(mac(2));
      const strict = await rejection(
        inventory.applyExpectedMachines([machine(2), machine(3, { dpuMode: "bogus" } as never)], {
          mode: "replace-all",
        }),
      );
      expect(strict.code).toBe("expected_machines_rejected");
      expect(await inventory.expectedMachines()).toHaveLength(3);

      const result = await inventory.applyExpectedMachines(
        [
          machine(2, { chassisSerial: "SN-2b", factoryUsername: "root" }),
          machine(3, { dpuMode: "bogus" } as never),
          machine(4, { factoryUsername: "admin", factoryPassword: "four" }),
        ],
        { mode: "replace-all", acceptPartial: true },
      );
      expect(result).toMatchObject({ applied: 2, deleted: 1 });
      expect(result.results.map((r) => r.ok)).toEqual([true, false, true]);
      const after = await inventory.expectedMachines();
      expect(after.map((m) => [m.bmcMac, m.chassisSerial, m.hasFactoryPassword])).toEqual([
        [mac(2), "SN-2b", true],
        [mac(3), "SN-3", false],
        [mac(4), "SN-4", true],
      ]);
      expect(after[0]?.createdAt).toBe(before?.createdAt);
      expect(await credentials.list()).toEqual([
        { kind: "bmc-factory", mac: mac(2) },
        { kind: "bmc-factory", mac: mac(4) },
      ]);
      expect(await credentials.get({ kind: "bmc-factory", mac: mac(2) })).toEqual({
        username: "root",
        password: SECRET,
      });
    });

    it("rolls a bulk request back when a password cannot be stored", async () => {
      await inventory.addExpectedMachine(machine(9));
      credentials.failWrites = true;
      await expect(
        inventory.applyExpectedMachines(
          [machine(1), machine(2, { factoryUsername: "root", factoryPassword: SECRET })],
          {
            mode: "replace-all",
          },
        ),
      ).rejects.toThrow("disk full");
      expect((await inventory.expectedMachines()).map((m) => m.bmcMac)).toEqual([mac(9)]);
    });

    it("handles a large manifest in one request", async () => {
      const many = Array.from({ length: 1200 }, (_, i) => ({
        bmcMac: `02:00:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`,
        chassisSerial: `S${i}`,
      }));
      expect(await inventory.applyExpectedMachines(many, { mode: "add" })).toMatchObject({ applied: 1200 });
      expect(
        await inventory.applyExpectedMachines(many.slice(0, 700), { mode: "replace-all" }),
      ).toMatchObject({
        applied: 700,
        deleted: 500,
      });
      expect(await inventory.expectedMachines()).toHaveLength(700);
    });
  });

  describe("DHCP discoveries", () => {
    const pool = parseIpv4Pool(POOL);
    if ("problem" in pool) throw new Error(pool.problem);

    it("hand a MAC the same pool address every time, starting where its MAC hashes to", async () => {
      const first = await inventory.discoverDhcp({
        mac: mac(1).toLowerCase(),
        vendorClass: "iDRAC",
        relay: "10.1.0.1",
      });
      expect(first).toMatchObject({
        mac: mac(1),
        address: numberToIpv4(preferredAddress(pool, mac(1))),
        static: false,
      });
      const again = await inventory.discoverDhcp({ mac: mac(1).replace(/:/g, "") });
      expect(again).toMatchObject({ address: first.address, vendorClass: "iDRAC", relay: "10.1.0.1" });
      const other = await inventory.discoverDhcp({ mac: mac(2) });
      expect(other.address).not.toBe(first.address);
      expect((await inventory.dhcpLeases()).map((lease) => [lease.mac, lease.address])).toEqual([
        [mac(1), first.address],
        [mac(2), other.address],
      ]);
    });

    it("let an expected machine's static address win, and never hand a reserved static address to another MAC", async () => {
      const pooled = await inventory.discoverDhcp({ mac: mac(1) });
      await inventory.addExpectedMachine(machine(1, { bmcAddress: "bmc-1.example:8443" }));
      expect(await inventory.discoverDhcp({ mac: mac(1) })).toMatchObject({
        address: "bmc-1.example:8443",
        static: true,
      });
      await inventory.updateExpectedMachine(mac(1), machine(1));
      expect(await inventory.discoverDhcp({ mac: mac(1) })).toMatchObject({
        address: pooled.address,
        static: false,
      });

      // Reserve five of the six pool addresses as static addresses; every other MAC gets the one left.
      const reserved = [1, 2, 3, 4, 5, 6]
        .map((n) => `10.0.0.${n}`)
        .filter((a) => a !== pooled.address)
        .slice(0, 4);
      await inventory.applyExpectedMachines(
        reserved.map((address, i) => machine(0x10 + i, { bmcAddress: address })),
        { mode: "add" },
      );
      const free = [1, 2, 3, 4, 5, 6]
        .map((n) => `10.0.0.${n}`)
        .find((a) => a !== pooled.address && !reserved.includes(a));
      expect(await inventory.discoverDhcp({ mac: mac(7) })).toMatchObject({ address: free, static: false });
    });

    it("agree on one address when one MAC is discovered several times at once", async () => {
      const leases = await Promise.all([1, 2, 3, 4].map(() => inventory.discoverDhcp({ mac: mac(9) })));
      expect(new Set(leases.map((lease) => lease.address)).size).toBe(1);
      expect((await inventory.dhcpLeases()).map((lease) => [lease.mac, lease.address])).toEqual([
        [mac(9), leases[0]?.address],
      ]);
    });

    it("give up with dhcp_contended, storing nothing, when every attempt loses its address", async () => {
      // Every lease write fails as if another MAC had just taken the address.
      const taken: KyselyPlugin = {
        transformQuery(args) {
          const node = args.node;
          if (node.kind === "InsertQueryNode" && node.into?.table.identifier.name === "dhcp_leases") {
            throw Object.assign(new Error("duplicate key value violates unique constraint"), {
              code: "23505",
            });
          }
          return node;
        },
        async transformResult(args) {
          return args.result;
        },
      };
      const database = { ...testDb.database, db: testDb.database.db.withPlugin(taken) };
      const leases = new DhcpLeaseStore(database, parseIpv4Pool("10.9.0.0/24") as Ipv4Pool);
      expect(await rejection(leases.discover({ mac: mac(5) }))).toMatchObject({
        code: "dhcp_contended",
        message: `the DHCP discovery of ${mac(5)} lost to concurrent discoveries 20 times; try again`,
      });
      expect(await inventory.dhcpLeases()).toEqual([]);
    });

    it("fail with a typed error when the pool is exhausted, and skip network and broadcast", async () => {
      // Concurrent discoveries (no lock: the pool's unique index decides) still get distinct addresses.
      const leases = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => inventory.discoverDhcp({ mac: mac(n) })),
      );
      const addresses = leases.map((lease) => lease.address);
      expect(addresses.sort()).toEqual([
        "10.0.0.1",
        "10.0.0.2",
        "10.0.0.3",
        "10.0.0.4",
        "10.0.0.5",
        "10.0.0.6",
      ]);
      const exhausted = await rejection(inventory.discoverDhcp({ mac: mac(7) }));
      expect(exhausted).toMatchObject({
        code: "dhcp_pool_exhausted",
        message: "no free address left in the underlay pool 10.0.0.0/29",
      });
      expect(await inventory.discoverDhcp({ mac: mac(3) })).toMatchObject({
        address: expect.stringMatching(/^10\.0\.0\.[1-6]$/),
      });
    });

    it.each([
      [{ mac: "zz" }, 'mac: "zz" is not a MAC address'],
      [{ mac: mac(1), relay: "not-an-ip" }, 'relay: "not-an-ip" is not an IP address'],
      [{ mac: mac(1), vendorClass: "x\u0000" }, "vendorClass: must be printable text"],
    ])("refuse a bad discovery %j", async (discovery, message) => {
      expect(await rejection(inventory.discoverDhcp(discovery))).toMatchObject({
        code: "invalid_argument",
        message: expect.stringContaining(message),
      });
    });

    it("yield BMC endpoints: every lease and every static address, one per MAC, the static one winning", async () => {
      const leased = await inventory.discoverDhcp({ mac: mac(1) });
      const second = await inventory.discoverDhcp({ mac: mac(2) });
      await inventory.addExpectedMachine(machine(2, { bmcAddress: "10.50.0.2" }));
      await inventory.addExpectedMachine(machine(3, { bmcAddress: "10.50.0.3:443" }));
      await inventory.addExpectedMachine(machine(4));
      const endpoints = await inventory.bmcEndpoints();
      expect(endpoints.map(({ address, mac }) => ({ address, mac }))).toEqual([
        { address: leased.address, mac: mac(1) },
        { address: "10.50.0.2", mac: mac(2) },
        { address: "10.50.0.3:443", mac: mac(3) },
      ]);
      // First seen: the first lease, even where an expected machine's static address came later and wins.
      expect(endpoints[1]?.firstSeenAt).toEqual(new Date(second.updatedAt));
      expect(endpoints[2]?.firstSeenAt?.getTime()).toBeGreaterThanOrEqual(
        new Date(second.updatedAt).getTime(),
      );
    });
  });
});
