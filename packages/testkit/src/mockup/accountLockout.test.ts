import { beforeAll, describe, expect, it } from "vitest";
import { basicAuth } from "./__fixtures__/http.js";
import { TINY_FULL } from "./__fixtures__/paths.js";
import { MockupService } from "./mockupService.js";
import { MockupTree } from "./mockupTree.js";

const SYSTEMS = "/redfish/v1/Systems";
const SESSIONS = "/redfish/v1/SessionService/Sessions";
let tree: MockupTree;

beforeAll(async () => {
  tree = await MockupTree.open(TINY_FULL);
});

/** A session-mode BMC (Basic accepted too) with a clock the test moves. */
function lockingBmc(threshold: number, durationMs?: number) {
  const clock = { now: 1_000_000 };
  const service = new MockupService(tree, {
    auth: "session",
    lockout: { threshold, ...(durationMs === undefined ? {} : { durationMs }) },
    now: () => clock.now,
  });
  const basic = (password: string) =>
    service.handle({ method: "GET", path: SYSTEMS, headers: basicAuth("root", password) });
  const session = (password: string) =>
    service.handle({ method: "POST", path: SESSIONS, body: { UserName: "root", Password: password } });
  return { service, clock, basic, session };
}

describe("account lockout", () => {
  it("locks after the threshold of failures in a row, refusing even the right password until it expires", async () => {
    const { service, clock, basic, session } = lockingBmc(3, 60_000);
    expect((await basic("wrong")).status).toBe(401);
    expect((await session("wrong")).status).toBe(401);
    expect(service.state.lockouts).toEqual([]);
    expect((await basic("wrong")).status).toBe(401);
    expect(service.state.lockouts).toEqual([{ user: "root", at: new Date(1_000_000) }]);
    expect((await basic("racksmith")).status).toBe(401);
    expect((await session("racksmith")).status).toBe(401);

    clock.now += 59_999;
    expect((await basic("racksmith")).status).toBe(401);
    clock.now += 1;
    expect((await basic("racksmith")).status).toBe(200);
    expect(service.state.lockouts).toHaveLength(1);
  });

  it("counts failures in a row only: a good login clears the count", async () => {
    const { service, basic, session } = lockingBmc(2);
    for (let round = 0; round < 5; round++) {
      expect((await basic("wrong")).status).toBe(401);
      expect((await session("racksmith")).status).toBe(201);
    }
    expect(service.state.lockouts).toEqual([]);
    expect(service.state.loginFailures.size).toBe(0);
  });

  it("ignores Basic credentials on open requests: they are answered and never count, logins still do", async () => {
    const { service, session } = lockingBmc(2);
    const openPaths = [
      "/redfish",
      "/redfish/v1",
      "/redfish/v1/",
      "/redfish/v1/$metadata",
      "/redfish/v1/odata",
    ];
    for (let round = 0; round < 3; round++) {
      for (const path of openPaths) {
        for (const method of ["GET", "HEAD"]) {
          const answer = await service.handle({ method, path, headers: basicAuth("root", "wrong") });
          expect(answer.status, `${method} ${path}`).toBe(200);
        }
      }
    }
    expect(service.state.loginFailures.size).toBe(0);
    expect(service.state.lockouts).toEqual([]);
    expect((await session("racksmith")).status).toBe(201);

    // A wrong Basic header on the login itself is not a failed login either; its body is.
    const login = (password: string) =>
      service.handle({
        method: "POST",
        path: SESSIONS,
        headers: basicAuth("root", "wrong"),
        body: { UserName: "root", Password: password },
      });
    expect((await login("racksmith")).status).toBe(201);
    expect(service.state.loginFailures.size).toBe(0);
    expect((await login("wrong")).status).toBe(401);
    expect(service.state.lockouts).toEqual([]);
    expect((await session("wrong")).status).toBe(401);
    expect(service.state.lockouts).toEqual([{ user: "root", at: new Date(1_000_000) }]);
    // Locked: the service root still answers, and logins are refused.
    const root = await service.handle({
      method: "GET",
      path: "/redfish/v1",
      headers: basicAuth("root", "x"),
    });
    expect(root.status).toBe(200);
    expect((await session("racksmith")).status).toBe(401);
  });

  it("never counts unknown users, and is off without a policy", async () => {
    const { service } = lockingBmc(1);
    const stranger = await service.handle({
      method: "GET",
      path: SYSTEMS,
      headers: basicAuth("nobody", "x"),
    });
    expect(stranger.status).toBe(401);
    expect(service.state.lockouts).toEqual([]);

    const open = new MockupService(tree, { auth: "basic" });
    for (let attempt = 0; attempt < 10; attempt++) {
      await open.handle({ method: "GET", path: SYSTEMS, headers: basicAuth("root", "no") });
    }
    const ok = await open.handle({
      method: "GET",
      path: SYSTEMS,
      headers: basicAuth("root", "racksmith"),
    });
    expect(ok.status).toBe(200);
  });

  it("rejects a policy that is not a positive threshold and a non-negative duration", () => {
    expect(() => new MockupService(tree, { lockout: { threshold: 0 } })).toThrow(
      /lockout.threshold must be a positive integer, got 0/,
    );
    expect(() => new MockupService(tree, { lockout: { threshold: 3, durationMs: -1 } })).toThrow(
      /lockout.durationMs must be a non-negative number, got -1/,
    );
  });
});
