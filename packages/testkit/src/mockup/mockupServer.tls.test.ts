import { RedfishClient, RedfishConnectionError } from "@racksmith/core/redfish";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TINY_FULL } from "./__fixtures__/paths.js";
import { MockupServer } from "./mockupServer.js";

let server: MockupServer;

beforeAll(async () => {
  server = await MockupServer.start({ root: TINY_FULL, tls: true });
});

afterAll(async () => {
  await server.stop();
});

it("serves HTTPS with a self-signed certificate valid for 127.0.0.1", async () => {
  expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(server.certificate).toMatch(/BEGIN CERTIFICATE/);
  const trusting = new RedfishClient({ address: server.url, tls: { ca: server.certificate ?? "" } });
  const insecure = new RedfishClient({ address: server.url, tls: { insecure: true } });
  try {
    expect((await trusting.get("/redfish/v1")).Id).toBe("RootService");
    expect((await insecure.get("/redfish/v1/Systems/1")).Id).toBe("1");
  } finally {
    await trusting.close();
    await insecure.close();
  }
});

it("is refused by a client that verifies against the system CAs", async () => {
  const verifying = new RedfishClient({ address: server.url, retry: { retries: 0 } });
  try {
    await expect(verifying.get("/redfish/v1")).rejects.toBeInstanceOf(RedfishConnectionError);
  } finally {
    await verifying.close();
  }
});

it("redirects a plain-HTTP request to HTTPS without answering it, credentials or not", async () => {
  const plainUrl = server.url.replace(/^https:/, "http:");
  const basic = `Basic ${Buffer.from("root:racksmith").toString("base64")}`;
  const answer = await fetch(`${plainUrl}/redfish/v1/Systems/1`, {
    headers: { authorization: basic },
    redirect: "manual",
  });
  expect(answer.status).toBe(308);
  expect(answer.headers.get("location")).toBe(`${server.url}/redfish/v1/Systems/1`);
  expect(await answer.text()).toBe("");
});

it("answers plain HTTP with a failed handshake, as before, when httpsRedirect is relaxed", async () => {
  const lenient = await MockupServer.start({ root: TINY_FULL, tls: true, lenient: ["httpsRedirect"] });
  try {
    const plainUrl = lenient.url.replace(/^https:/, "http:");
    await expect(fetch(`${plainUrl}/redfish/v1`, { redirect: "manual" })).rejects.toThrow();
  } finally {
    await lenient.stop();
  }
});
