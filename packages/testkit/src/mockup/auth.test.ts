import { RedfishClient } from "@racksmith/core/redfish";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, messageIds } from "./__fixtures__/http.js";
import { TINY_FULL } from "./__fixtures__/paths.js";
import type { JsonObject } from "./json.js";
import { MockupServer } from "./mockupServer.js";
import { MockupService } from "./mockupService.js";
import { MockupTree } from "./mockupTree.js";
import type { MockupAuthMode, MockupResponse } from "./types.js";

const ROOT = basicAuth("root", "racksmith");
const SESSIONS = "/redfish/v1/SessionService/Sessions";
let tree: MockupTree;

beforeAll(async () => {
  tree = await MockupTree.open(TINY_FULL);
});

function serviceWith(auth: MockupAuthMode): MockupService {
  return new MockupService(tree, { auth });
}

async function login(service: MockupService, password = "racksmith"): Promise<MockupResponse> {
  return service.handle({ method: "POST", path: SESSIONS, body: { UserName: "root", Password: password } });
}

const body = (response: MockupResponse): JsonObject => response.body as JsonObject;

describe("open requests", () => {
  it("serves the service root, $metadata and odata without credentials in every mode", async () => {
    for (const mode of ["basic", "session", "password-change-required"] as const) {
      const service = serviceWith(mode);
      for (const path of [
        "/redfish",
        "/redfish/v1",
        "/redfish/v1/",
        "/redfish/v1/$metadata",
        "/redfish/v1/odata",
      ]) {
        expect((await service.handle({ method: "GET", path })).status, `${mode} ${path}`).toBe(200);
      }
      expect((await service.handle({ method: "GET", path: "/redfish/v1/Systems" })).status).toBe(401);
    }
  });

  it("needs nothing in mode none", async () => {
    expect((await serviceWith("none").handle({ method: "GET", path: "/redfish/v1/Systems" })).status).toBe(
      200,
    );
  });
});

describe("basic", () => {
  const service = () => serviceWith("basic");

  it("wants valid Basic credentials and says so with WWW-Authenticate", async () => {
    const s = service();
    const refused = await s.handle({ method: "GET", path: "/redfish/v1/Systems" });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe('Basic realm="racksmith-mockup"');
    expect(messageIds(body(refused))).toEqual(["Base.1.8.NoValidSession"]);
    const wrong = basicAuth("root", "nope");
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: wrong })).status).toBe(401);
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: ROOT })).status).toBe(200);
  });

  it("does not take session tokens", async () => {
    const s = service();
    const token = (await login(s)).headers["x-auth-token"] ?? "";
    expect(token).not.toBe("");
    const answer = await s.handle({
      method: "GET",
      path: "/redfish/v1/Systems",
      headers: { "X-Auth-Token": token },
    });
    expect(answer.status).toBe(401);
  });
});

describe("session", () => {
  it("takes a session token or Basic credentials, and refuses a bad login", async () => {
    const s = serviceWith("session");
    expect((await login(s, "wrong")).status).toBe(401);
    const session = await login(s);
    expect(session.status).toBe(201);
    const token = session.headers["x-auth-token"] ?? "";
    const withToken = { "x-auth-token": token };
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: withToken })).status).toBe(
      200,
    );
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: ROOT })).status).toBe(200);
    expect(
      (await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: { "x-auth-token": "forged" } }))
        .status,
    ).toBe(401);
  });

  it("invalidates a token on logout and on expireSessions", async () => {
    const s = serviceWith("session");
    const first = await login(s);
    const second = await login(s);
    const location = first.headers.location ?? "";
    const headers = { "x-auth-token": first.headers["x-auth-token"] ?? "" };
    expect((await s.handle({ method: "DELETE", path: location, headers })).status).toBe(204);
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers })).status).toBe(401);

    const other = { "x-auth-token": second.headers["x-auth-token"] ?? "" };
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: other })).status).toBe(200);
    s.expireSessions();
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: other })).status).toBe(401);
    const sessions = await s.handle({ method: "GET", path: SESSIONS, headers: ROOT });
    expect(body(sessions)["Members@odata.count"]).toBe(0);
  });
});

describe("password-change-required", () => {
  it("answers 403 PasswordChangeRequired until the account's own password is changed", async () => {
    const s = serviceWith("password-change-required");
    const blocked = await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: ROOT });
    expect(blocked.status).toBe(403);
    expect(messageIds(body(blocked))).toEqual(["Base.1.8.PasswordChangeRequired"]);
    expect(JSON.stringify(body(blocked))).toContain("/redfish/v1/AccountService/Accounts/1");
    expect(
      (await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: basicAuth("root", "x") }))
        .status,
    ).toBe(401);

    const session = await login(s);
    expect(session.status).toBe(201);
    expect(messageIds(body(session))).toEqual(["Base.1.8.PasswordChangeRequired"]);
    const token = { "x-auth-token": session.headers["x-auth-token"] ?? "" };
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: token })).status).toBe(403);

    const patchAccount = (id: string, patch: JsonObject) =>
      s.handle({
        method: "PATCH",
        path: `/redfish/v1/AccountService/Accounts/${id}`,
        headers: token,
        body: patch,
      });
    // Another account's password, or anything but its own password: still refused.
    expect((await patchAccount("2", { Password: "new-secret-1" })).status).toBe(403);
    expect((await patchAccount("1", { RoleId: "ReadOnly" })).status).toBe(403);
    expect((await patchAccount("1", { Password: "new-secret-1" })).status).toBe(204);
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: token })).status).toBe(200);
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: ROOT })).status).toBe(401);
    const fresh = basicAuth("root", "new-secret-1");
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: fresh })).status).toBe(200);
    const account = await s.handle({
      method: "GET",
      path: "/redfish/v1/AccountService/Accounts/1",
      headers: fresh,
    });
    expect(body(account).Password).toBeNull();
  });
});

describe("accounts", () => {
  it("lets a created account log in and a deleted one no longer", async () => {
    const s = serviceWith("basic");
    const created = await s.handle({
      method: "POST",
      path: "/redfish/v1/AccountService/Accounts",
      headers: ROOT,
      body: { UserName: "ops", Password: "ops-secret", RoleId: "Operator" },
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain("ops-secret");
    const ops = basicAuth("ops", "ops-secret");
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: ops })).status).toBe(200);
    expect(
      (await s.handle({ method: "DELETE", path: created.headers.location ?? "", headers: ROOT })).status,
    ).toBe(204);
    expect((await s.handle({ method: "GET", path: "/redfish/v1/Systems", headers: ops })).status).toBe(401);
  });
});

describe("over HTTP with the Redfish client", () => {
  let server: MockupServer;

  beforeAll(async () => {
    server = await MockupServer.start({ root: tree, auth: "session" });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("logs in once, and again after the sessions expire", async () => {
    const client = new RedfishClient({
      address: server.url,
      auth: "session",
      credentials: { username: "root", password: "racksmith" },
      retry: { retries: 0 },
    });
    try {
      expect((await client.get("/redfish/v1/Systems")).Name).toBe("Computer System Collection");
      await client.get("/redfish/v1/Managers");
      expect(server.stats.byMethod.POST).toBe(1);
      server.expireSessions();
      expect((await client.get("/redfish/v1/Systems/1")).Id).toBe("1");
      expect(server.stats.byMethod.POST).toBe(2);
    } finally {
      await client.close();
    }
    expect(server.stats.byMethod.DELETE).toBe(1);
  });
});
