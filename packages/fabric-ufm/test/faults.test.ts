import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UfmClient } from "../src/client/index.js";
import { UfmSimulator } from "../src/simulator/index.js";
import { clientFor, fabricFor, PORTS, recordingLogger } from "./helpers.js";

const TOKEN = "tok-9f8e7d6c5b4a";
const PASSWORD = "pa55-w0rd-xyz";

describe("faults", () => {
  let simulator: UfmSimulator;
  let client: UfmClient;

  beforeEach(async () => {
    simulator = await UfmSimulator.start({ ports: PORTS, auth: { token: TOKEN } });
    client = clientFor(simulator, { mode: "token", token: TOKEN }, { timeoutMs: 1_000 });
  });
  afterEach(async () => {
    await client.close();
    await simulator.stop();
  });

  it("down → fabric_unavailable; back up → works again", async () => {
    await client.getVersion();
    await simulator.setDown(true);
    await expect(client.getVersion()).rejects.toMatchObject({
      code: "fabric_unavailable",
      status: "UNAVAILABLE",
      details: { errno: "ECONNREFUSED" },
    });
    await simulator.setDown(false);
    await expect(client.getVersion()).resolves.toBeDefined();
  });

  it("starts down when asked", async () => {
    const down = await UfmSimulator.start({ faults: { down: true } });
    const other = clientFor(down);
    await expect(other.getVersion()).rejects.toMatchObject({ code: "fabric_unavailable" });
    await other.close();
    await down.stop();
  });

  it("slow → fabric_timeout naming the timeout", async () => {
    // Answers only when the simulator stops: the client's 1 s timeout is what ends the request.
    simulator.setDelay(600_000);
    await expect(client.getVersion()).rejects.toMatchObject({
      code: "fabric_timeout",
      status: "DEADLINE_EXCEEDED",
      message: expect.stringContaining("timed out after 1000 ms"),
    });
  });

  it("the caller's abort ends the request", async () => {
    // Answers only when the simulator stops, long after the fabric's own 5 s timeout: only the abort can end
    // the request with `aborted`, whenever it comes.
    simulator.setDelay(600_000);
    const fabric = fabricFor(simulator, { auth: { mode: "token", token: TOKEN }, timeoutMs: 5_000 });
    const controller = new AbortController();
    const pending = fabric.versions({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: "fabric_timeout", details: { aborted: true } });
    await fabric.close();
  });

  it("500 → fabric_unavailable with the HTTP status; it clears", async () => {
    simulator.failRequests(500, { count: 1 });
    await expect(client.getSmConfig()).rejects.toMatchObject({
      code: "fabric_unavailable",
      details: { httpStatus: 500, path: "/ufmRestV3/app/smconf" },
    });
    await expect(client.getSmConfig()).resolves.toBeDefined();
    simulator.failRequests(503);
    await expect(client.listPorts()).rejects.toMatchObject({ details: { httpStatus: 503 } });
    await simulator.clearFaults();
    await expect(client.listPorts()).resolves.toHaveLength(3);
  });

  it("faults can target one path", async () => {
    simulator.failRequests(500, { pathPrefix: "/resources/pkeys" });
    await expect(client.getVersion()).resolves.toBeDefined();
    await expect(client.listPartitions()).rejects.toMatchObject({ details: { httpStatus: 500 } });
  });
});

describe("secrets", () => {
  it("never appear in error messages, details or logs, even when UFM echoes them", async () => {
    const simulator = await UfmSimulator.start({
      ports: PORTS,
      auth: { token: TOKEN, username: "admin", password: PASSWORD },
    });
    const basicHeader = Buffer.from(`admin:${PASSWORD}`).toString("base64");
    const echo = `{"error":"bad request from token ${TOKEN} password ${PASSWORD} header Basic ${basicHeader}"}`;
    // Each client scrubs the secrets it holds: the token client its token, the basic client its password.
    const cases = [
      { auth: { mode: "token" as const, token: TOKEN }, secrets: [TOKEN] },
      {
        auth: { mode: "basic" as const, username: "admin", password: PASSWORD },
        secrets: [PASSWORD, basicHeader],
      },
    ];
    for (const { auth, secrets } of cases) {
      const logger = recordingLogger();
      const client = clientFor(simulator, auth, { logger });
      const seen: string[] = [];
      await client.getVersion();
      for (const status of [400, 500, 200]) {
        simulator.failRequests(status, { count: 1, body: status === 200 ? `not json ${echo}` : echo });
        const error = (await client.getSmConfig().catch((e: unknown) => e)) as Error & { details: unknown };
        expect(error).toBeInstanceOf(Error);
        seen.push(error.message, JSON.stringify(error.details), String(error.stack));
      }
      seen.push((await client.rawGet("/app/ufm_version")).body);
      await client.close();
      expect(seen.join("\n")).toContain("[redacted]");
      expect(logger.lines.length).toBeGreaterThan(0);
      const everything = [...seen, ...logger.lines].join("\n");
      for (const secret of secrets) expect(everything).not.toContain(secret);
    }
    await simulator.stop();
  });
});
