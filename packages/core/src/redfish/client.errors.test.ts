import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import {
  RedfishConnectionError,
  RedfishHttpError,
  RedfishMalformedResponseError,
  RedfishTimeoutError,
} from "./errors.js";

describe("typed errors", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start(async (request, response) => {
      switch (request.url) {
        case "/redfish/v1/html":
          response.writeHead(200, { "Content-Type": "text/html" });
          return response.end("<html><body>Login</body></html>");
        case "/redfish/v1/truncated":
          response.writeHead(200, { "Content-Type": "application/json" });
          return response.end('{"Id": "1", "Name": ');
        case "/redfish/v1/array":
          return sendJson(response, 200, [1, 2, 3]);
        case "/redfish/v1/slow":
          // Never answered: the request timeout is the one way such a request ends.
          return new Promise((resolve) => response.once("close", resolve));
        case "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset":
          return sendJson(
            response,
            400,
            redfishError("Base.1.8.ActionParameterValueNotInList", "ResetType Foo is not allowed"),
          );
        default:
          return sendJson(response, 404, redfishError("Base.1.8.ResourceMissingAtURI"));
      }
    });
  });
  afterAll(() => bmc.stop());

  it("RedfishHttpError carries status, path and MessageIds", async () => {
    const client = new RedfishClient({ address: bmc.url });
    const error = (await client
      .post("/redfish/v1/Systems/1/Actions/ComputerSystem.Reset", { ResetType: "Foo" })
      .catch((e: unknown) => e)) as RedfishHttpError;
    expect(error).toBeInstanceOf(RedfishHttpError);
    expect(error.code).toBe("redfish_http_error");
    expect(error.httpStatus).toBe(400);
    expect(error.path).toBe("/redfish/v1/Systems/1/Actions/ComputerSystem.Reset");
    expect(error.details.messageIds).toEqual(["Base.1.8.ActionParameterValueNotInList"]);
    expect(error.message).toContain("ResetType Foo is not allowed");
    expect(error.status).toBe("INVALID_ARGUMENT");
    await client.close();
  });

  it.each([
    ["/redfish/v1/html", "content type text/html", "<html>"],
    ["/redfish/v1/truncated", "invalid JSON", '{"Id"'],
    ["/redfish/v1/array", "not a JSON object", "[1,2,3]"],
  ])("RedfishMalformedResponseError for %s", async (path, reason, excerpt) => {
    const client = new RedfishClient({ address: bmc.url });
    const error = (await client.get(path).catch((e: unknown) => e)) as RedfishMalformedResponseError;
    expect(error).toBeInstanceOf(RedfishMalformedResponseError);
    expect(error.code).toBe("redfish_malformed_response");
    expect(error.message).toContain(reason);
    expect(error.bodyExcerpt).toContain(excerpt);
    await client.close();
  });

  it("RedfishTimeoutError when the answer is slower than the request timeout", async () => {
    const client = new RedfishClient({ address: bmc.url, requestTimeoutMs: 100, retry: { retries: 0 } });
    const error = (await client.get("/redfish/v1/slow").catch((e: unknown) => e)) as RedfishTimeoutError;
    expect(error).toBeInstanceOf(RedfishTimeoutError);
    expect(error.code).toBe("redfish_timeout");
    expect(error.phase).toBe("request");
    await client.close();
  });

  it("RedfishConnectionError when nothing listens", async () => {
    const closedPort = await freePort();
    const client = new RedfishClient({
      address: `http://127.0.0.1:${closedPort}`,
      retry: { retries: 1, baseDelayMs: 1 },
    });
    const error = (await client.get("/redfish/v1").catch((e: unknown) => e)) as RedfishConnectionError;
    expect(error).toBeInstanceOf(RedfishConnectionError);
    expect(error.code).toBe("redfish_connection_error");
    expect(error.details.errno).toBe("ECONNREFUSED");
    await client.close();
  });

  describe("connect timeout", () => {
    let silent: Server;
    const sockets: Socket[] = [];
    beforeAll(async () => {
      // Accepts TCP but never speaks TLS, so the handshake (part of connecting) never completes.
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });

    it("RedfishTimeoutError in the connect phase", async () => {
      const { port } = silent.address() as AddressInfo;
      const client = new RedfishClient({
        address: `https://127.0.0.1:${port}`,
        connectTimeoutMs: 150,
        retry: { retries: 0 },
        tls: { insecure: true },
      });
      const error = (await client.get("/redfish/v1").catch((e: unknown) => e)) as RedfishTimeoutError;
      expect(error).toBeInstanceOf(RedfishTimeoutError);
      expect(error.phase).toBe("connect");
      await client.close();
    });
  });

  it("rejects an address that is not http(s)", () => {
    expect(() => new RedfishClient({ address: "ftp://10.0.0.1" })).toThrow(/http or https/);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("text documents", () => {
  let bmc: FakeBmc;
  beforeAll(async () => {
    bmc = await FakeBmc.start((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/xml" });
      response.end('<?xml version="1.0"?><edmx:Edmx Version="4.0"/>');
    });
  });
  afterAll(() => bmc.stop());

  it("getText returns XML as is, while get refuses it", async () => {
    const client = new RedfishClient({ address: bmc.url });
    await expect(client.getText("/redfish/v1/$metadata")).resolves.toContain("edmx:Edmx");
    await expect(client.get("/redfish/v1/$metadata")).rejects.toBeInstanceOf(RedfishMalformedResponseError);
    await client.close();
  });
});
