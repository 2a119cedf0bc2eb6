import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeBmc, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";

const MEMBERS = Array.from({ length: 7 }, (_, i) => ({ "@odata.id": `/redfish/v1/Chassis/${i}` }));

describe("collections", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      const url = new URL(request.url, "http://x");
      if (url.pathname === "/redfish/v1/Chassis") {
        const skip = Number(url.searchParams.get("$skip") ?? 0);
        const expand = url.searchParams.get("$expand");
        const page = MEMBERS.slice(skip, skip + 3).map((m, i) =>
          expand && i % 2 === 0 ? { ...m, Id: String(skip + i), Name: "expanded" } : m,
        );
        const next =
          skip + 3 < MEMBERS.length
            ? `/redfish/v1/Chassis?$skip=${skip + 3}${expand ? `&$expand=${expand}` : ""}`
            : undefined;
        return sendJson(response, 200, {
          "@odata.id": "/redfish/v1/Chassis",
          "Members@odata.count": MEMBERS.length,
          Members: page,
          ...(next ? { "Members@odata.nextLink": next } : {}),
        });
      }
      const id = url.pathname.split("/").pop();
      return sendJson(response, 200, { "@odata.id": url.pathname, Id: id, Name: "fetched" });
    });
  });
  afterAll(() => bmc.stop());

  it("follows Members@odata.nextLink to the end", async () => {
    const client = new RedfishClient({ address: bmc.url });
    expect(await client.listMembers("/redfish/v1/Chassis")).toEqual(MEMBERS.map((m) => m["@odata.id"]));
    await client.close();
  });

  it("with expand, uses expanded members and fetches only the rest", async () => {
    bmc.requests.length = 0;
    const client = new RedfishClient({ address: bmc.url });
    const members = await client.getMembers("Chassis", { expand: true });
    expect(members.map((m) => m.Id)).toEqual(["0", "1", "2", "3", "4", "5", "6"]);
    expect(bmc.requests[0]?.url).toBe("/redfish/v1/Chassis?$expand=.($levels=1)");
    const individual = bmc.requests.filter((r) => !r.url.includes("?"));
    expect(individual.map((r) => r.url).sort()).toEqual(["/redfish/v1/Chassis/1", "/redfish/v1/Chassis/4"]);
    expect(members.filter((m) => m.Name === "expanded")).toHaveLength(5);
    await client.close();
  });
});

describe("empty collections", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) =>
      sendJson(response, 200, request.url.endsWith("/Null") ? { Members: null } : { Members: "oops" }),
    );
  });
  afterAll(() => bmc.stop());

  it("reads `Members: null` (OpenBMC) as empty and refuses a non-array", async () => {
    const client = new RedfishClient({ address: bmc.url });
    expect(await client.listMembers("/redfish/v1/Null")).toEqual([]);
    await expect(client.listMembers("/redfish/v1/Bad")).rejects.toThrow(/Members is not an array/);
    await client.close();
  });
});
