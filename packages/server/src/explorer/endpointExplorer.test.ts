import { redfishStandardDriver, silentLogger } from "@racksmith/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { CredentialKey } from "../inventory/contracts.js";
import { type FakeBmcHold, type FakeBmcOptions, FakeRedfishBmc } from "./__fixtures__/fakeRedfishBmc.js";
import { TestCredentialStore } from "./__fixtures__/memoryCredentials.js";
import { createBmcConnector } from "./bmcConnector.js";
import { type ResolvedSiteExplorerConfig, resolveSiteExplorerConfig } from "./configSchema.js";
import { type EndpointExploration, EndpointExplorer } from "./endpointExplorer.js";
import { ExplorationError } from "./explorationFailure.js";
import { type AuthFailures, NO_AUTH_FAILURES } from "./lockout.js";

const MAC = "AA:BB:CC:00:00:01";
const FACTORY = { username: "root", password: "factory-pw" };
const SITE = { username: "root", password: "site-secret-pw" };
// No request of these tests ends by its own timeout unless the test says so: a busy machine must not turn an
// answer from the (in-process) fake BMC into a timeout.
const config = resolveSiteExplorerConfig({
  bmc: { scheme: "http", connectTimeoutMs: 20_000, requestTimeoutMs: 20_000 },
  lockout: { maxAuthFailures: 3, windowMs: 600_000 },
});
const bmcs: FakeRedfishBmc[] = [];

/** A whole exploration may take only this long; no request of it times out on its own before. */
function withDeadline(explorationTimeoutMs: number): ResolvedSiteExplorerConfig {
  return { ...config, bmc: { ...config.bmc, explorationTimeoutMs } };
}

/** The BMC answers the anonymous probe and the login (the first request with credentials), then holds every request. */
function afterTheLogin(): FakeBmcHold {
  let loggedIn = false;
  return (request) => {
    if (loggedIn) return true;
    loggedIn = request.authenticated;
    return false;
  };
}

/** Whether a promise has settled yet (it has when its callbacks ran in the microtasks flushed so far). */
function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  return () => done;
}

function explorerWith(
  store: TestCredentialStore,
  explorerConfig: ResolvedSiteExplorerConfig = config,
): EndpointExplorer {
  return new EndpointExplorer({
    connector: createBmcConnector(explorerConfig, { logger: silentLogger }),
    credentials: store,
    drivers: () => [redfishStandardDriver],
    config: explorerConfig,
    logger: silentLogger,
  });
}

async function bmc(options: Partial<FakeBmcOptions> = {}): Promise<FakeRedfishBmc> {
  const started = await FakeRedfishBmc.start({ password: FACTORY.password, serial: "SER-1", ...options });
  bmcs.push(started);
  return started;
}

function explore(
  store: TestCredentialStore,
  address: string,
  options: {
    authFailures?: AuthFailures;
    mayRotate?: boolean;
    mac?: string;
    config?: ResolvedSiteExplorerConfig;
  } = {},
): Promise<EndpointExploration> {
  return explorerWith(store, options.config).explore({
    address,
    mac: "mac" in options ? options.mac : MAC,
    authFailures: options.authFailures ?? NO_AUTH_FAILURES,
    mayRotate: options.mayRotate ?? true,
  });
}

const factoryKey: CredentialKey = { kind: "bmc-factory", mac: MAC };
const bmcKey: CredentialKey = { kind: "bmc", mac: MAC };
const intentKey: CredentialKey = { kind: "bmc-rotation", mac: MAC };
const siteKey: CredentialKey = { kind: "site-bmc-root" };

afterAll(async () => {
  await Promise.all(bmcs.map((b) => b.stop()));
});

describe("exploring one endpoint", () => {
  let closed: string;
  beforeAll(async () => {
    closed = await FakeRedfishBmc.closedAddress();
  });

  it("explores with the BMC's own credentials and reports driver, vendor and serial", async () => {
    const target = await bmc({ password: SITE.password });
    const store = new TestCredentialStore([[bmcKey, SITE]]);
    const result = await explore(store, target.address, { authFailures: { count: 2, lastAt: new Date() } });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ vendor: "Contoso", driver: "redfish-standard", rotated: false });
    expect(result.report?.systems[0]).toMatchObject({ serialNumber: "SER-1", powerState: "On" });
    expect(result.authFailures).toEqual(NO_AUTH_FAILURES);
    expect(store.writes).toEqual([]);
  });

  it.each([
    ["unreachable", async () => closed],
    ["timeout", async () => (await bmc({ fault: "slow" })).address],
    ["malformed_response", async () => (await bmc({ fault: "malformed" })).address],
    ["redfish_error", async () => (await bmc({ fault: "http500" })).address],
  ])("types a BMC failure as %s", async (code, address) => {
    // A short request timeout only for the BMC that never answers: that timeout is its request's only end.
    const options =
      code === "timeout" ? { config: { ...config, bmc: { ...config.bmc, requestTimeoutMs: 400 } } } : {};
    const result = await explore(new TestCredentialStore([[bmcKey, SITE]]), await address(), options);
    expect(result.report).toBeUndefined();
    expect(result.error).toMatchObject({ code });
    if (code === "redfish_error")
      expect(result.error).toMatchObject({ httpStatus: 500, bodyExcerpt: expect.any(String) });
  });

  it("reports unauthorized when the BMC refuses the login, and counts it", async () => {
    const target = await bmc({ password: "something-else" });
    const result = await explore(new TestCredentialStore([[bmcKey, SITE]]), target.address);
    expect(result.error).toMatchObject({ code: "unauthorized" });
    expect(result.authFailures.count).toBe(1);
    expect(target.refusedLogins).toBe(1);
  });

  it("reports missing_credentials when nothing is known for the BMC", async () => {
    const target = await bmc();
    const result = await explore(new TestCredentialStore(), target.address);
    expect(result.error).toMatchObject({
      code: "missing_credentials",
      message: expect.stringContaining("contoso"),
    });
    expect(target.refusedLogins).toBe(0);
  });

  it("stops before the lockout threshold, then leaves the BMC alone (avoid_lockout)", async () => {
    const target = await bmc({ password: "unknown-to-us" });
    const store = new TestCredentialStore([
      [bmcKey, SITE],
      [{ kind: "factory-default", vendor: "contoso" }, FACTORY],
    ]);
    const first = await explore(store, target.address);
    expect(first.error).toMatchObject({ code: "unauthorized" });
    expect(first.authFailures.count).toBe(2);
    const second = await explore(store, target.address, { authFailures: first.authFailures });
    expect(second.error).toMatchObject({ code: "avoid_lockout" });
    const third = await explore(store, target.address, { authFailures: second.authFailures });
    expect(third.error).toMatchObject({
      code: "avoid_lockout",
      message: expect.stringContaining("3 failed logins"),
    });
    expect(target.refusedLogins).toBe(3);
  });
});

describe("credential rotation on first contact", () => {
  it("rotates a factory login to the site password: intent first, verified, then stored", async () => {
    const target = await bmc();
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
    ]);
    const result = await explore(store, target.address);
    expect(result.error).toBeUndefined();
    expect(result.rotated).toBe(true);
    expect(result.report?.systems[0]?.serialNumber).toBe("SER-1");
    expect(target.password).toBe(SITE.password);
    expect(store.peek(bmcKey)).toEqual(SITE);
    expect(store.peek(intentKey)).toBeUndefined();
    expect(store.writes).toEqual([`set bmc-rotation:${MAC}`, `set bmc:${MAC}`, `delete bmc-rotation:${MAC}`]);
    expect(target.refusedLogins).toBe(0);
    expect(JSON.stringify(result)).not.toContain(SITE.password);
    expect(JSON.stringify(result)).not.toContain(FACTORY.password);
  });

  it("uses the vendor's factory default when the expected machine has none", async () => {
    const target = await bmc({ vendor: "Acme" });
    const store = new TestCredentialStore([
      [{ kind: "factory-default", vendor: "acme" }, FACTORY],
      [siteKey, SITE],
    ]);
    expect((await explore(store, target.address)).rotated).toBe(true);
    expect(target.password).toBe(SITE.password);
  });

  it("handles PasswordChangeRequired by changing the account the BMC names", async () => {
    const target = await bmc({ passwordChangeRequired: true });
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
    ]);
    const result = await explore(store, target.address);
    expect(result.error).toBeUndefined();
    expect(result.report?.systems[0]?.serialNumber).toBe("SER-1");
    expect(target).toMatchObject({
      password: SITE.password,
      passwordChangeRequired: false,
      passwordChanges: 1,
    });
    expect(store.peek(bmcKey)).toEqual(SITE);
  });

  it("reports a demanded password change without a site password as missing_credentials", async () => {
    const target = await bmc({ passwordChangeRequired: true });
    const result = await explore(new TestCredentialStore([[factoryKey, FACTORY]]), target.address);
    expect(result.error).toMatchObject({
      code: "missing_credentials",
      message: expect.stringContaining("site-bmc-root"),
    });
    expect(target.passwordChanges).toBe(0);
  });

  it("keeps the factory login when no site password is set", async () => {
    const target = await bmc();
    const store = new TestCredentialStore([[factoryKey, FACTORY]]);
    const result = await explore(store, target.address);
    expect(result).toMatchObject({ error: undefined, rotated: false });
    expect(target.password).toBe(FACTORY.password);
  });

  it("recovers a rotation interrupted after the BMC changed (store write failed) without a refused login", async () => {
    const target = await bmc();
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
    ]);
    store.failNext(bmcKey);
    const crashed = await explore(store, target.address);
    expect(crashed.error).toMatchObject({
      code: "rotation_failed",
      message: expect.stringContaining("next run"),
    });
    expect(target.password).toBe(SITE.password);
    expect(store.peek(intentKey)).toEqual(SITE);
    expect(store.peek(bmcKey)).toBeUndefined();

    const recovered = await explore(store, target.address, { authFailures: crashed.authFailures });
    expect(recovered.error).toBeUndefined();
    expect(recovered.rotated).toBe(true);
    expect(store.peek(bmcKey)).toEqual(SITE);
    expect(store.peek(intentKey)).toBeUndefined();
    expect(target.refusedLogins).toBe(0);
    expect(target.passwordChanges).toBe(1);
  });

  it("recovers a rotation interrupted before the BMC changed: the stale intent costs one refused login", async () => {
    const target = await bmc();
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
      [intentKey, SITE],
    ]);
    const result = await explore(store, target.address);
    expect(result.error).toBeUndefined();
    expect(target.password).toBe(SITE.password);
    expect(store.peek(bmcKey)).toEqual(SITE);
    expect(store.peek(intentKey)).toBeUndefined();
    expect(target.refusedLogins).toBe(1);
    expect(result.authFailures).toEqual(NO_AUTH_FAILURES);
  });

  it("drops the intent when the BMC refuses the new password, keeping the old one", async () => {
    const target = await bmc({ refusePasswordChange: true });
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
    ]);
    const result = await explore(store, target.address);
    expect(result.error).toMatchObject({
      code: "rotation_failed",
      message: expect.stringContaining("did not take"),
    });
    expect(target.password).toBe(FACTORY.password);
    expect(store.peek(intentKey)).toBeUndefined();
    expect(store.peek(bmcKey)).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain(SITE.password);
  });

  it("changes nothing on a one-off exploration (explore now)", async () => {
    const target = await bmc();
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
    ]);
    const result = await explore(store, target.address, { mayRotate: false });
    expect(result).toMatchObject({ error: undefined, rotated: false });
    expect(target.password).toBe(FACTORY.password);
    expect(store.writes).toEqual([]);
  });
});

describe("the exploration deadline (bmc.explorationTimeoutMs)", () => {
  // The deadline's timer and the explorer's clock (performance.now) are fake: the test moves them once the BMC
  // holds what it should, so the deadline passes at a known point of the exploration. The sockets stay real.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ends an exploration of a BMC that stops answering after the login: timeout, requests aborted, no report", async () => {
    const target = await bmc({ password: SITE.password, hold: afterTheLogin() });
    const store = new TestCredentialStore([[bmcKey, SITE]]);
    const exploring = explore(store, target.address, { config: withDeadline(500) });
    const ended = settled(exploring);
    // The exploration waits on the reads the BMC holds: the systems, managers and chassis collections, read
    // side by side (the service root and `$metadata` were read before the login).
    await target.until(() => target.heldRequests.length === 3);
    const sentBeforeDeadline = target.requests;
    await vi.advanceTimersByTimeAsync(499);
    expect(ended()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await exploring;
    expect(result.report).toBeUndefined();
    expect(result.error).toEqual({
      code: "timeout",
      message:
        "the whole exploration exceeded 500 ms (siteExplorer.bmc.explorationTimeoutMs) while reading the BMC's resources (redfish-standard driver); its requests were aborted",
    });
    // Measured on the explorer's (fake) clock: the exploration lasted until its deadline, not a moment more.
    expect(result.latencyMs).toBe(500);
    // The login worked before the deadline: no refused login is counted.
    expect(result.authFailures).toEqual(NO_AUTH_FAILURES);
    // What was in flight was dropped (the BMC saw its client go), and nothing more was sent after the deadline.
    await target.until(() => target.inFlight === 0);
    expect(target.abandonedRequests).toBe(3);
    expect(target.requests).toBe(sentBeforeDeadline);
  });

  it("names what the exploration was doing, and leaves a fast BMC alone", async () => {
    // The probe is answered; the login's authenticated read is held, so it is in flight at the deadline.
    const slowLogin = await bmc({ password: SITE.password, hold: (request) => request.authenticated });
    const store = new TestCredentialStore([[bmcKey, SITE]]);
    const exploring = explore(store, slowLogin.address, { config: withDeadline(400) });
    await slowLogin.until(() => slowLogin.heldRequests.length > 0);
    await vi.advanceTimersByTimeAsync(400);
    const timedOut = await exploring;
    expect(timedOut.error?.message).toContain("while logging in;");

    // A BMC answering everything within the deadline is explored in full.
    const fast = await bmc({ password: SITE.password });
    const explored = await explore(store, fast.address, { config: withDeadline(400) });
    expect(explored.error).toBeUndefined();
    expect(explored.report?.systems[0]?.serialNumber).toBe("SER-1");
    expect(fast.abandonedRequests).toBe(0);
  });

  it("keeps the rotation intent when the deadline hits during the password change, as a crash would", async () => {
    // The BMC holds the PATCH until the explorer has given up on it, then applies it: an outcome unknown to
    // the explorer.
    const target = await bmc({ hold: ({ method }) => method === "PATCH" });
    const store = new TestCredentialStore([
      [factoryKey, FACTORY],
      [siteKey, SITE],
    ]);
    const exploring = explore(store, target.address, { config: withDeadline(400) });
    await target.until(() => target.heldRequests.length > 0);
    await vi.advanceTimersByTimeAsync(400);
    const interrupted = await exploring;
    expect(interrupted.error).toMatchObject({
      code: "timeout",
      message: expect.stringContaining("while changing the BMC's password"),
    });
    expect(interrupted).toMatchObject({ report: undefined, rotated: false, latencyMs: 400 });
    expect(store.writes).toEqual([`set bmc-rotation:${MAC}`]);
    expect(store.peek(intentKey)).toEqual(SITE);
    expect(store.peek(bmcKey)).toBeUndefined();
    expect(JSON.stringify(interrupted)).not.toContain(SITE.password);
    // The explorer dropped the PATCH before the BMC applied it; the BMC applies it afterwards.
    await target.until(() => target.inFlight === 0);
    expect(target.abandonedRequests).toBe(1);
    expect(target.password).toBe(FACTORY.password);
    target.hold = undefined;
    target.release();
    expect(target.password).toBe(SITE.password);

    // The next exploration tries the intent first: it works, and becomes the BMC's password.
    const recovered = await explore(store, target.address, { authFailures: interrupted.authFailures });
    expect(recovered).toMatchObject({ error: undefined, rotated: true });
    expect(store.peek(bmcKey)).toEqual(SITE);
    expect(store.peek(intentKey)).toBeUndefined();
    expect(target).toMatchObject({ refusedLogins: 0, passwordChanges: 1 });
  });

  it("bounds a power-on too", async () => {
    // The login's read is held: the deadline passes before the power-on action could be sent.
    const target = await bmc({
      power: "Off",
      password: SITE.password,
      hold: (request) => request.authenticated,
    });
    const poweringOn = explorerWith(new TestCredentialStore([[bmcKey, SITE]]), withDeadline(400))
      .powerOn({ address: target.address, mac: MAC, authFailures: NO_AUTH_FAILURES })
      .catch((e: unknown) => e);
    const ended = settled(poweringOn);
    await target.until(() => target.heldRequests.length > 0);
    const sentBeforeDeadline = target.requests;
    await vi.advanceTimersByTimeAsync(399);
    expect(ended()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await poweringOn;
    expect(error).toBeInstanceOf(ExplorationError);
    expect(error).toMatchObject({ failureCode: "timeout", status: "DEADLINE_EXCEEDED" });
    // The login was dropped (the BMC saw its client go), and the power-on action was never sent.
    await target.until(() => target.inFlight === 0);
    expect(target.abandonedRequests).toBe(1);
    expect(target.requests).toBe(sentBeforeDeadline);
    expect(target.power).toBe("Off");
  });
});

describe("powering a host on", () => {
  it("logs in with the stored credentials and powers the system on", async () => {
    const target = await bmc({ power: "Off", password: SITE.password });
    const failures = await explorerWith(new TestCredentialStore([[bmcKey, SITE]])).powerOn({
      address: target.address,
      mac: MAC,
      authFailures: NO_AUTH_FAILURES,
    });
    expect(target.power).toBe("On");
    expect(failures).toEqual(NO_AUTH_FAILURES);
  });
});
