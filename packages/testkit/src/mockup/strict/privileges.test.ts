import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { basicAuth, messageIds } from "../__fixtures__/http.js";
import { REPO_ROOT, TINY_FULL } from "../__fixtures__/paths.js";
import type { JsonObject } from "../json.js";
import { MockupService, type MockupServiceOptions } from "../mockupService.js";
import { MockupTree } from "../mockupTree.js";
import type { MockupResponse } from "../types.js";

const EXAMPLE = join(REPO_ROOT, "packages/testkit/mockups/example");
const ACCOUNTS = "/redfish/v1/AccountService/Accounts";
const ROLES = "/redfish/v1/AccountService/Roles";
const SYSTEM = "/redfish/v1/Systems/1";
const MANAGER = "/redfish/v1/Managers/bmc";
const SESSIONS = "/redfish/v1/SessionService/Sessions";

// The example mockup: Accounts/1 root (Administrator, the configured user), Accounts/2 operator (Operator),
// predefined Roles Administrator, Operator and ReadOnly.
const ROOT = basicAuth("root", "racksmith");
const OPERATOR = basicAuth("operator", "operator-pw");
const VIEWER = basicAuth("viewer", "viewer-pw");

let example: MockupTree;
let tiny: MockupTree;

beforeAll(async () => {
  example = await MockupTree.open(EXAMPLE);
  tiny = await MockupTree.open(TINY_FULL);
});

const body = (response: MockupResponse): JsonObject => response.body as JsonObject;

type Headers = Record<string, string>;

function request(
  service: MockupService,
  method: string,
  path: string,
  headers: Headers,
  payload?: JsonObject,
) {
  return service.handle({ method, path, headers, ...(payload ? { body: payload } : {}) });
}

/** The example tree with passwords for its operator and a ReadOnly `viewer`, set up by root. */
async function exampleService(options: MockupServiceOptions = {}): Promise<MockupService> {
  const service = new MockupService(example, { auth: "basic", ...options });
  const operator = await request(service, "PATCH", `${ACCOUNTS}/2`, ROOT, { Password: "operator-pw" });
  expect(operator.status).toBe(204);
  const viewer = await request(service, "POST", ACCOUNTS, ROOT, {
    UserName: "viewer",
    Password: "viewer-pw",
    RoleId: "ReadOnly",
  });
  expect(viewer.status).toBe(201);
  return service;
}

function expectInsufficient(response: MockupResponse): void {
  expect(response.status).toBe(403);
  expect(messageIds(body(response))).toEqual(["Base.1.8.InsufficientPrivilege"]);
}

async function accountPathOfUser(service: MockupService, userName: string): Promise<string> {
  const collection = await service.read(ACCOUNTS);
  for (const member of (collection?.Members ?? []) as JsonObject[]) {
    const path = String(member["@odata.id"]);
    if ((await service.read(path))?.UserName === userName) return path;
  }
  throw new Error(`no account for ${userName}`);
}

describe("privileges of the predefined roles", () => {
  it("follows a role change at once, although privileges are kept between reads", async () => {
    const service = await exampleService();
    expect((await request(service, "GET", SYSTEM, OPERATOR)).status).toBe(200);
    expect((await request(service, "PATCH", SYSTEM, OPERATOR, { AssetTag: "a" })).status).toBe(204);
    const demoted = await request(service, "PATCH", `${ACCOUNTS}/2`, ROOT, { RoleId: "ReadOnly" });
    expect(demoted.status).toBe(204);
    expectInsufficient(await request(service, "PATCH", SYSTEM, OPERATOR, { AssetTag: "b" }));
    // A change made behind the handlers (a vendor hook, a test) counts too.
    await service.merge(`${ACCOUNTS}/2`, { RoleId: "Operator" });
    expect((await request(service, "PATCH", SYSTEM, OPERATOR, { AssetTag: "c" })).status).toBe(204);
  });

  it("lets a ReadOnly user read but not change a system", async () => {
    const service = await exampleService();
    expect((await request(service, "GET", SYSTEM, VIEWER)).status).toBe(200);
    expect((await request(service, "HEAD", SYSTEM, VIEWER)).status).toBe(200);
    expectInsufficient(await request(service, "PATCH", SYSTEM, VIEWER, { AssetTag: "x" }));
    const reset = await request(service, "POST", `${SYSTEM}/Actions/ComputerSystem.Reset`, VIEWER, {
      ResetType: "ForceRestart",
    });
    expectInsufficient(reset);
    expect(service.actions).toEqual([]);
  });

  it("lets an Operator configure components but not users or the manager", async () => {
    const service = await exampleService();
    expect((await request(service, "PATCH", SYSTEM, OPERATOR, { AssetTag: "rack-7" })).status).toBe(204);
    expect((await service.read(SYSTEM))?.AssetTag).toBe("rack-7");
    expectInsufficient(await request(service, "PATCH", `${ACCOUNTS}/1`, OPERATOR, { Password: "stolen-pw" }));
    expectInsufficient(
      await request(service, "POST", ACCOUNTS, OPERATOR, {
        UserName: "x",
        Password: "x-pw",
        RoleId: "ReadOnly",
      }),
    );
    expectInsufficient(
      await request(service, "PATCH", MANAGER, OPERATOR, { DateTime: "2024-01-01T00:00:00Z" }),
    );
    // The refused password change did not take.
    expect((await request(service, "GET", SYSTEM, ROOT)).status).toBe(200);
  });

  it("lets any user change its own Password (ConfigureSelf), but not its own RoleId", async () => {
    const service = await exampleService();
    const own = await accountPathOfUser(service, "viewer");
    expectInsufficient(await request(service, "PATCH", own, VIEWER, { RoleId: "Administrator" }));
    expectInsufficient(
      await request(service, "PATCH", own, VIEWER, { Password: "new-viewer-pw", RoleId: "Administrator" }),
    );
    expect((await service.read(own))?.RoleId).toBe("ReadOnly");
    expect((await request(service, "PATCH", own, VIEWER, { Password: "new-viewer-pw" })).status).toBe(204);
    const renewed = basicAuth("viewer", "new-viewer-pw");
    expect((await request(service, "GET", SYSTEM, renewed)).status).toBe(200);
    expect((await request(service, "GET", SYSTEM, VIEWER)).status).toBe(401);
    // Own password with an OData annotation is still only a password change.
    const annotated = { Password: "third-pw", "@odata.id": own };
    expect([200, 204]).toContain((await request(service, "PATCH", own, renewed, annotated)).status);
    expect((await request(service, "GET", SYSTEM, basicAuth("viewer", "third-pw"))).status).toBe(200);
    // Another user's password is ConfigureUsers.
    expectInsufficient(
      await request(service, "PATCH", `${ACCOUNTS}/2`, basicAuth("viewer", "third-pw"), { Password: "y" }),
    );
  });

  it("lets an Administrator create, change and delete accounts", async () => {
    const service = await exampleService();
    const created = await request(service, "POST", ACCOUNTS, ROOT, {
      UserName: "ops",
      Password: "ops-secret",
      RoleId: "Operator",
    });
    expect(created.status).toBe(201);
    const location = created.headers.location ?? "";
    expect((await request(service, "PATCH", location, ROOT, { RoleId: "ReadOnly" })).status).toBe(204);
    expectInsufficient(
      await request(service, "PATCH", SYSTEM, basicAuth("ops", "ops-secret"), { AssetTag: "y" }),
    );
    expect((await request(service, "DELETE", location, ROOT)).status).toBe(204);
  });

  it("treats the configured user without an account resource as Administrator", async () => {
    const service = new MockupService(example, {
      auth: "basic",
      credentials: { username: "admin", password: "admin-pw" },
    });
    const admin = basicAuth("admin", "admin-pw");
    expect(
      (await request(service, "PATCH", MANAGER, admin, { DateTime: "2024-01-01T00:00:00Z" })).status,
    ).toBe(204);
  });

  it("falls back to the predefined privileges when the tree has no Role resources", async () => {
    const service = new MockupService(tiny, { auth: "basic" });
    expect((await request(service, "PATCH", `${ACCOUNTS}/2`, ROOT, { Password: "operator-pw" })).status).toBe(
      204,
    );
    expect((await request(service, "PATCH", SYSTEM, OPERATOR, { Name: "Renamed" })).status).toBe(204);
    expectInsufficient(await request(service, "PATCH", `${ACCOUNTS}/1`, OPERATOR, { Enabled: false }));
  });
});

describe("roles from the tree", () => {
  it("grant the AssignedPrivileges and OemPrivileges of a custom role; an unknown role grants nothing", async () => {
    const service = await exampleService();
    await service.createMember(
      ROLES,
      {
        "@odata.type": "#Role.v1_3_1.Role",
        Name: "Manager keeper",
        RoleId: "Keeper",
        IsPredefined: false,
        AssignedPrivileges: ["Login", "ConfigureManager"],
        OemPrivileges: ["OemClearLogs"],
      },
      { id: "Keeper" },
    );
    for (const [name, roleId] of [
      ["keeper", "Keeper"],
      ["ghost", "NoSuchRole"],
    ]) {
      const created = await request(service, "POST", ACCOUNTS, ROOT, {
        UserName: name ?? "",
        Password: `${name}-pw`,
        RoleId: roleId ?? "",
      });
      expect(created.status).toBe(201);
    }
    const keeper = basicAuth("keeper", "keeper-pw");
    expect(
      (await request(service, "PATCH", MANAGER, keeper, { DateTime: "2024-01-01T00:00:00Z" })).status,
    ).toBe(204);
    expectInsufficient(await request(service, "PATCH", SYSTEM, keeper, { AssetTag: "k" }));
    expectInsufficient(await request(service, "GET", SYSTEM, basicAuth("ghost", "ghost-pw")));
    // A custom role is not predefined: an Administrator may change it.
    expect(
      (await request(service, "PATCH", `${ROLES}/Keeper`, ROOT, { AssignedPrivileges: ["Login"] })).status,
    ).toBe(204);
    expectInsufficient(
      await request(service, "PATCH", MANAGER, keeper, { DateTime: "2024-01-02T00:00:00Z" }),
    );
  });

  it("refuses a change to a predefined role with 405 and Allow: GET, HEAD, for anyone", async () => {
    const service = await exampleService({ lenient: ["methods"] });
    for (const headers of [ROOT, VIEWER]) {
      const patched = await request(service, "PATCH", `${ROLES}/ReadOnly`, headers, {
        AssignedPrivileges: ["Login", "ConfigureManager"],
      });
      expect(patched.status).toBe(405);
      expect(patched.headers.allow).toBe("GET, HEAD");
    }
    const deleted = await request(service, "DELETE", `${ROLES}/Operator`, ROOT);
    expect(deleted.status).toBe(405);
    expect(deleted.headers.allow).toBe("GET, HEAD");
    expect((await service.read(`${ROLES}/ReadOnly`))?.AssignedPrivileges).toEqual(["Login", "ConfigureSelf"]);
    expect((await request(service, "GET", `${ROLES}/ReadOnly`, VIEWER)).status).toBe(200);
    // Even with authentication off, and without the methods rule (which also reads predefined roles as GET, HEAD).
    const open = new MockupService(example, { lenient: ["methods"] });
    const patched = await open.handle({ method: "PATCH", path: `${ROLES}/Operator`, body: { Name: "x" } });
    expect(patched.status).toBe(405);
    expect(patched.headers.allow).toBe("GET, HEAD");
  });
});

describe("sessions", () => {
  it("lets a user delete its own session (ConfigureSelf) but not another's (ConfigureManager)", async () => {
    const service = await exampleService({ auth: "session" });
    const login = (UserName: string, Password: string) =>
      service.handle({ method: "POST", path: SESSIONS, body: { UserName, Password } });
    const viewerSession = await login("viewer", "viewer-pw");
    const rootSession = await login("root", "racksmith");
    expect(viewerSession.status).toBe(201);
    expect(rootSession.status).toBe(201);
    const viewer = { "x-auth-token": viewerSession.headers["x-auth-token"] ?? "" };
    expectInsufficient(await request(service, "DELETE", rootSession.headers.location ?? "", viewer));
    expectInsufficient(
      await request(service, "PATCH", "/redfish/v1/SessionService", viewer, { SessionTimeout: 60 }),
    );
    expect((await request(service, "DELETE", viewerSession.headers.location ?? "", viewer)).status).toBe(204);
    const another = await login("viewer", "viewer-pw");
    const rootToken = { "x-auth-token": rootSession.headers["x-auth-token"] ?? "" };
    expect((await request(service, "DELETE", another.headers.location ?? "", rootToken)).status).toBe(204);
  });
});

describe("relaxed", () => {
  it("enforces nothing with strict: false", async () => {
    const service = await exampleService({ strict: false });
    expect(service.rules.enforces("privileges")).toBe(false);
    expect((await request(service, "PATCH", SYSTEM, VIEWER, { AssetTag: "free" })).status).toBe(204);
    expect((await request(service, "PATCH", `${ACCOUNTS}/1`, OPERATOR, { Enabled: true })).status).toBe(204);
    expect((await request(service, "PATCH", `${ROLES}/ReadOnly`, VIEWER, { Name: "Changed" })).status).toBe(
      204,
    );
    expect((await service.read(`${ROLES}/ReadOnly`))?.Name).toBe("Changed");
  });

  it("enforces nothing when the privileges rule is lenient", async () => {
    const service = await exampleService({ lenient: ["privileges"] });
    expect((await request(service, "PATCH", SYSTEM, VIEWER, { AssetTag: "free" })).status).toBe(204);
    // The methods rule (Allow) also keeps predefined roles read-only: relax both to change one.
    const both = await exampleService({ lenient: ["privileges", "methods"] });
    expect((await request(both, "PATCH", `${ROLES}/ReadOnly`, VIEWER, { Name: "Changed" })).status).toBe(204);
  });
});
