import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_MOCKUP } from "../../index.js";
import { http, messageIds } from "../__fixtures__/http.js";
import { REPO_ROOT } from "../__fixtures__/paths.js";
import type { JsonObject } from "../json.js";
import { MockupServer } from "../mockupServer.js";

/**
 * Issue 23's findings, one test each, against the server `racksmith mockup serve` runs: strict mode (the
 * default) with session authentication, as the probe that found them used, over our example mockup and over
 * our iDRAC-shaped Dell mockup (the probe served the shared Dell capture). What a tree lacks for a finding — an
 * EventService, a predefined role, an Operator account — is set up first, as a real BMC of that kind has it.
 */

const MOCKUPS = [
  ["the example mockup", EXAMPLE_MOCKUP],
  ["the Dell PowerEdge R750 mockup", join(REPO_ROOT, "packages/driver-dell/mockups/poweredge-r750")],
] as const;

const ROOT = { username: "root", password: "root-Pass-1" };
const OPERATOR = { username: "operator", password: "operator-Pass-1" };
const ACCOUNTS = "/redfish/v1/AccountService/Accounts";
const ROLES = "/redfish/v1/AccountService/Roles";

describe.each(MOCKUPS)("strict mode on %s answers what a real Redfish service answers", (_name, root) => {
  let server: MockupServer;
  let rootToken: string;
  let system: string;
  let manager: string;
  let rootAccount: string;

  const as = (token: string, headers: Record<string, string> = {}) => ({ "x-auth-token": token, ...headers });
  const get = async (path: string) => (await http(server.url, "GET", path, { headers: as(rootToken) })).json;
  const firstMember = async (collection: string) =>
    String(((await get(collection)).Members as JsonObject[])[0]?.["@odata.id"]);

  async function login(credentials: { username: string; password: string }): Promise<string> {
    const answer = await http(server.url, "POST", "/redfish/v1/SessionService/Sessions", {
      body: { UserName: credentials.username, Password: credentials.password },
    });
    expect(answer.status).toBe(201);
    return answer.headers.get("x-auth-token") ?? "";
  }

  async function accountOf(userName: string): Promise<string | undefined> {
    for (const member of (await get(ACCOUNTS)).Members as JsonObject[]) {
      const path = String(member["@odata.id"]);
      if ((await get(path)).UserName === userName) return path;
    }
    return undefined;
  }

  beforeAll(async () => {
    server = await MockupServer.start({ root, auth: "session", credentials: ROOT });
    rootToken = await login(ROOT);
    system = await firstMember("/redfish/v1/Systems");
    manager = await firstMember("/redfish/v1/Managers");
    rootAccount = (await accountOf(ROOT.username)) ?? "";
    // An Operator account with a password, set by the administrator through the API as on a real BMC.
    const operator = await accountOf(OPERATOR.username);
    const setUp = operator
      ? await http(server.url, "PATCH", operator, {
          body: { Password: OPERATOR.password },
          headers: as(rootToken),
        })
      : await http(server.url, "POST", ACCOUNTS, {
          body: { UserName: OPERATOR.username, Password: OPERATOR.password, RoleId: "Operator" },
          headers: as(rootToken),
        });
    expect([201, 204]).toContain(setUp.status);
    if (!(await server.service.read(`${ROLES}/ReadOnly`))) {
      server.service.write(`${ROLES}/ReadOnly`, {
        "@odata.id": `${ROLES}/ReadOnly`,
        "@odata.type": "#Role.v1_3_1.Role",
        Id: "ReadOnly",
        RoleId: "ReadOnly",
        IsPredefined: true,
        AssignedPrivileges: ["Login", "ConfigureSelf"],
      });
    }
    server.service.write("/redfish/v1/EventService", {
      "@odata.id": "/redfish/v1/EventService",
      "@odata.type": "#EventService.v1_7_0.EventService",
      Id: "EventService",
      Name: "Event Service",
      Subscriptions: { "@odata.id": "/redfish/v1/EventService/Subscriptions" },
    });
    server.service.write("/redfish/v1/EventService/Subscriptions", {
      "@odata.id": "/redfish/v1/EventService/Subscriptions",
      "@odata.type": "#EventDestinationCollection.EventDestinationCollection",
      Name: "Event Subscriptions",
      Members: [],
      "Members@odata.count": 0,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("PATCH of the service root: 405 with Allow; an unknown method: 501", async () => {
    const patch = await http(server.url, "PATCH", "/redfish/v1", {
      body: { Name: "x" },
      headers: as(rootToken),
    });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("GET, HEAD");
    expect(
      (await http(server.url, "PROPFIND", "/redfish/v1/Systems", { headers: as(rootToken) })).status,
    ).toBe(501);
  });

  it("PATCH with an unknown property: 400; mixed: 200 naming it; array elements {} kept, shorter arrays cut", async () => {
    const unknown = await http(server.url, "PATCH", system, { body: { Bogus: 1 }, headers: as(rootToken) });
    expect(unknown.status).toBe(400);
    expect(messageIds(unknown.json)).toEqual(["Base.1.8.PropertyUnknown"]);

    const mixed = await http(server.url, "PATCH", system, {
      body: { AssetTag: "rack-7", Bogus: 1 },
      headers: as(rootToken),
    });
    expect(mixed.status).toBe(200);
    expect(mixed.json.AssetTag).toBe("rack-7");
    expect(JSON.stringify(mixed.json["@Message.ExtendedInfo"])).toContain("Bogus");

    const before = ((await get(system)).Boot as { BootOrder: string[] }).BootOrder;
    const patched = await http(server.url, "PATCH", system, {
      body: { Boot: { BootOrder: [{}, "Boot0099"] } },
      headers: as(rootToken),
    });
    expect(patched.status).toBe(204);
    expect(((await get(system)).Boot as { BootOrder: string[] }).BootOrder).toEqual([before[0], "Boot0099"]);
  });

  it("OData-Version 4.1: 412; ?only=foo: 400; ?$unknown: 501", async () => {
    const systems = "/redfish/v1/Systems";
    const version = await http(server.url, "GET", systems, {
      headers: as(rootToken, { "OData-Version": "4.1" }),
    });
    expect(version.status).toBe(412);
    expect((await http(server.url, "GET", `${systems}?only=foo`, { headers: as(rootToken) })).status).toBe(
      400,
    );
    expect((await http(server.url, "GET", `${systems}?$unknown`, { headers: as(rootToken) })).status).toBe(
      501,
    );
  });

  it("GET and HEAD carry Allow, Cache-Control and Link rel=describedby", async () => {
    for (const method of ["GET", "HEAD"]) {
      const answer = await http(server.url, method, manager, { headers: as(rootToken) });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("allow")).toBe("GET, HEAD, PATCH");
      expect(answer.headers.get("cache-control")).toBe("no-cache");
      expect(answer.headers.get("link")).toMatch(/\/Manager\.v\d+_\d+_\d+\.json>; rel=describedby$/);
    }
  });

  it("privileges: an Operator cannot change another user's account; predefined roles are read-only", async () => {
    const operator = await login(OPERATOR);
    const other = await http(server.url, "PATCH", rootAccount, {
      body: { Password: "stolen-Pass-1" },
      headers: as(operator),
    });
    expect(other.status).toBe(403);
    expect(messageIds(other.json)).toEqual(["Base.1.8.InsufficientPrivilege"]);
    expect(await login(ROOT)).not.toBe("");

    const role = await http(server.url, "PATCH", `${ROLES}/ReadOnly`, {
      body: { AssignedPrivileges: ["Login", "ConfigureUsers"] },
      headers: as(rootToken),
    });
    expect(role.status).toBe(405);
    expect(role.headers.get("allow")).toBe("GET, HEAD");
  });

  it("an event subscription with an unsupported Protocol (FTP): 400", async () => {
    const answer = await http(server.url, "POST", "/redfish/v1/EventService/Subscriptions", {
      body: { Destination: "https://collector.example/events", Protocol: "FTP" },
      headers: as(rootToken),
    });
    expect(answer.status).toBe(400);
    expect(messageIds(answer.json)).toEqual(["Base.1.8.PropertyValueNotInList"]);
  });

  it("with TLS on, Basic auth over plain HTTP is redirected to HTTPS, not answered", async () => {
    const tls = await MockupServer.start({ root, auth: "basic", credentials: ROOT, tls: true });
    try {
      const basic = `Basic ${Buffer.from(`${ROOT.username}:${ROOT.password}`).toString("base64")}`;
      const answer = await fetch(`${tls.url.replace("https:", "http:")}/redfish/v1/Systems`, {
        headers: { authorization: basic },
        redirect: "manual",
      });
      expect(answer.status).toBe(308);
      expect(answer.headers.get("location")).toBe(`${tls.url}/redfish/v1/Systems`);
    } finally {
      await tls.stop();
    }
  });
});
