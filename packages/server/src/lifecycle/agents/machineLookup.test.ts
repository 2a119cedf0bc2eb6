import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../testing/index.js";
import { insertHost } from "./__fixtures__/site.js";
import { dpusByHostFacingMac, identifyMachine } from "./machineLookup.js";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase("machinelookup");
  await insertHost(testDb.database, {
    id: "h-1",
    dpus: [{ id: "d-1", hostFacingMac: "b8:3f:d2:00:00:01", primary: true }],
  });
});
afterAll(() => testDb?.close());

describe("finding a host by its DPU's host-facing MAC", () => {
  it("matches whatever the case and separators of either MAC", async () => {
    const nics = [{ name: "eth0", mac: "B8-3F-D2-00-00-01", model: "CX7", pciAddress: "0000:01" }];
    expect(await identifyMachine(testDb.database.db, { serial: "unknown", nics })).toEqual({
      machineId: "h-1",
      kind: "host",
      hostId: "h-1",
    });
  });

  // An agent whose machine the site has not ingested asks again and again until it is: on 20,000 machines a
  // lookup that normalises every machine's MAC is a full scan at every call.
  it("goes through the index on the normalised MAC", async () => {
    const plan = await testDb.database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const rows = await dpusByHostFacingMac(trx, ["B83FD2000001"]).explain();
      return rows.map((row) => Object.values(row).join(" ")).join("\n");
    });
    expect(plan).toContain("machines_by_host_facing_mac");
  });
});
