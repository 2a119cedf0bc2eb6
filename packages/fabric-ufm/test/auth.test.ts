import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UfmSimulator } from "../src/simulator/index.js";
import { clientFor, makeCertificates, PORTS, type TestCertificates } from "./helpers.js";

describe("UFM auth modes", () => {
  let simulator: UfmSimulator;

  beforeAll(async () => {
    simulator = await UfmSimulator.start({
      ports: PORTS,
      auth: { token: "the-token", username: "admin", password: "s3cret!" },
    });
  });
  afterAll(() => simulator.stop());

  it("token: Authorization Basic <token> under /ufmRestV3", async () => {
    const client = clientFor(simulator, { mode: "token", token: "the-token" });
    expect(client.basePath).toBe("/ufmRestV3");
    await expect(client.getVersion()).resolves.toBeDefined();
    expect(simulator.requests.at(-1)).toMatchObject({ base: "/ufmRestV3", auth: "token", status: 200 });
    await client.close();
  });

  it("basic: user and password under /ufmRest", async () => {
    const client = clientFor(simulator, { mode: "basic", username: "admin", password: "s3cret!" });
    expect(client.basePath).toBe("/ufmRest");
    await expect(client.getVersion()).resolves.toBeDefined();
    expect(simulator.requests.at(-1)).toMatchObject({ base: "/ufmRest", auth: "basic", status: 200 });
    await client.close();
  });

  it("a refused credential is fabric_auth_failed, and the message does not carry it", async () => {
    for (const auth of [
      { mode: "token" as const, token: "wrong-token" },
      { mode: "basic" as const, username: "admin", password: "wrong-password" },
    ]) {
      const client = clientFor(simulator, auth);
      const error = (await client.getVersion().catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject({ code: "fabric_auth_failed", details: { httpStatus: 401 } });
      expect(
        JSON.stringify({ message: error.message, details: (error as { details?: unknown }).details }),
      ).not.toMatch(/wrong-token|wrong-password/);
      await client.close();
    }
  });

  it("keeps an endpoint path as a prefix of the base path", () => {
    const client = clientFor(
      simulator,
      { mode: "token", token: "t" },
      { endpoint: `${simulator.url}/proxy/` },
    );
    expect(client.basePath).toBe("/proxy/ufmRestV3");
    void client.close();
  });
});

describe("UFM over TLS", () => {
  let certs: TestCertificates;
  let simulator: UfmSimulator;

  beforeAll(async () => {
    certs = makeCertificates();
    simulator = await UfmSimulator.start({
      ports: PORTS,
      tls: { cert: certs.serverCert, key: certs.serverKey, ca: certs.ca },
      auth: { token: "tls-token", clientCert: true },
    });
  });
  afterAll(() => simulator?.stop());

  it("verifies the server against the CA bundle", async () => {
    const client = clientFor(simulator, { mode: "token", token: "tls-token" }, { tls: { ca: certs.ca } });
    expect(simulator.url).toMatch(/^https:/);
    await expect(client.getVersion()).resolves.toBeDefined();
    await client.close();
  });

  it("refuses a server its CA bundle does not vouch for (fabric_unavailable), unless allowInsecure", async () => {
    const strict = clientFor(
      simulator,
      { mode: "token", token: "tls-token" },
      { tls: { ca: certs.otherCa } },
    );
    await expect(strict.getVersion()).rejects.toMatchObject({ code: "fabric_unavailable" });
    await strict.close();
    const insecure = clientFor(
      simulator,
      { mode: "token", token: "tls-token" },
      { tls: { allowInsecure: true } },
    );
    await expect(insecure.getVersion()).resolves.toBeDefined();
    await insecure.close();
  });

  it("mTLS: the client certificate authenticates under /ufmRest", async () => {
    const client = clientFor(
      simulator,
      { mode: "mtls", cert: certs.clientCert, key: certs.clientKey },
      { tls: { ca: certs.ca } },
    );
    expect(client.basePath).toBe("/ufmRest");
    await expect(client.listPorts()).resolves.toHaveLength(3);
    expect(simulator.requests.at(-1)).toMatchObject({ base: "/ufmRest", auth: "mtls" });
    await client.close();
  });

  it("mTLS without a valid client certificate is fabric_auth_failed", async () => {
    const client = clientFor(
      simulator,
      { mode: "mtls", cert: certs.serverCert, key: certs.serverKey },
      { tls: { ca: certs.ca } },
    );
    // The server certificate is signed by the same CA but is not for client auth.
    await expect(client.listPorts()).rejects.toMatchObject({ code: "fabric_auth_failed" });
    await client.close();
  });
});
