import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";

const gets = (bmc: FakeBmc) => bmc.requests.filter((r) => r.method === "GET").map((r) => r.url);

describe("readingOnce", () => {
  let bmc: FakeBmc;
  let power = "On";
  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      const url = new URL(request.url, "http://x");
      if (request.method === "PATCH") {
        power = "Off";
        return sendJson(response, 204, undefined);
      }
      if (url.pathname === "/redfish/v1/Missing") return sendJson(response, 404, {});
      if (url.pathname === "/redfish/v1/Chassis") {
        const expanded = url.searchParams.get("$expand") !== null;
        return sendJson(response, 200, {
          Members: [
            expanded
              ? { "@odata.id": "/redfish/v1/Chassis/A", Id: "A", Name: "from expand" }
              : {
                  "@odata.id": "/redfish/v1/Chassis/A",
                },
            { "@odata.id": "/redfish/v1/Chassis/B" },
          ],
        });
      }
      return sendJson(
        response,
        200,
        { "@odata.id": url.pathname, Name: "fetched", PowerState: power },
        {
          ETag: 'W/"1"',
        },
      );
    });
  });
  afterAll(() => bmc.stop());
  beforeEach(() => {
    bmc.requests.length = 0;
    power = "On";
  });

  it("fetches a resource once however often and however concurrently it is read, each reader its own copy", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const [first, second, third] = await client.readingOnce(async () => {
      const both = await Promise.all([client.get("/redfish/v1/Systems/1"), client.get("Systems/1")]);
      return [...both, await client.get("/redfish/v1/Systems/1")];
    });
    expect(gets(bmc)).toEqual(["/redfish/v1/Systems/1"]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    (first as Record<string, unknown>).Name = "changed by a reader";
    expect(second?.Name).toBe("fetched");
    expect(third?.Name).toBe("fetched");
    await client.close();
  });

  it("reads again outside the scope, after a write, and after a failure", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const states = await client.readingOnce(async () => {
      const before = (await client.get("/redfish/v1/Systems/1")).PowerState;
      await client.patch("/redfish/v1/Systems/1", { PowerState: "Off" });
      const after = (await client.get("/redfish/v1/Systems/1")).PowerState;
      await expect(client.get("/redfish/v1/Missing")).rejects.toThrow();
      await expect(client.get("/redfish/v1/Missing")).rejects.toThrow();
      return [before, after];
    });
    expect(states).toEqual(["On", "Off"]);
    await client.get("/redfish/v1/Systems/1");
    expect(gets(bmc)).toEqual([
      "/redfish/v1/Systems/1",
      "/redfish/v1/Systems/1",
      "/redfish/v1/Missing",
      "/redfish/v1/Missing",
      "/redfish/v1/Systems/1",
    ]);
    await client.close();
  });

  it("takes members an expanded collection carried as read, and fetches the others", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const names = await client.readingOnce(async () => {
      const ids = await client.listMembers("/redfish/v1/Chassis", { expand: true });
      return Promise.all(ids.map(async (id) => (await client.get(id)).Name));
    });
    expect(names).toEqual(["from expand", "fetched"]);
    expect(gets(bmc)).toEqual(["/redfish/v1/Chassis?$expand=.($levels=1)", "/redfish/v1/Chassis/B"]);
    await client.close();
  });

  it("fetches an expanded member again when its headers are asked for", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const etag = await client.readingOnce(async () => {
      await client.listMembers("/redfish/v1/Chassis", { expand: true });
      return (await client.getResponse("/redfish/v1/Chassis/A")).etag;
    });
    expect(etag).toBe('W/"1"');
    expect(gets(bmc)).toEqual(["/redfish/v1/Chassis?$expand=.($levels=1)", "/redfish/v1/Chassis/A"]);
    await client.close();
  });

  it("without the scope, reads every time and expands only when asked", async () => {
    const client = new RedfishClient({ address: bmc.url });
    await client.get("/redfish/v1/Systems/1");
    await client.get("/redfish/v1/Systems/1");
    expect(await client.listMembers("/redfish/v1/Chassis")).toEqual([
      "/redfish/v1/Chassis/A",
      "/redfish/v1/Chassis/B",
    ]);
    expect(gets(bmc)).toEqual(["/redfish/v1/Systems/1", "/redfish/v1/Systems/1", "/redfish/v1/Chassis"]);
    await client.close();
  });
});
