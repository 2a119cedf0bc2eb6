import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadProject, tempProject } from "./__fixtures__/project.js";
import { checkListeners } from "./listenersCheck.js";

const open: Array<Server | HttpServer> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listening<T extends Server | HttpServer>(server: T): Promise<number> {
  open.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function listeners(http: string, grpc = "127.0.0.1:0") {
  const dir = tempProject(`server:\n  http: "${http}"\n  grpc: "${grpc}"\n`);
  return checkListeners(loadProject(dir), dir);
}

describe("checkListeners", () => {
  it("free addresses (port 0 is any free port) are ok", async () => {
    const port = await listening(createServer());
    await new Promise((done) => open.pop()?.close(done));
    const result = await listeners(`127.0.0.1:${port}`);
    expect(result.runningServiceAt).toBeUndefined();
    expect(result.checks).toEqual([
      {
        id: "listeners",
        title: "listen addresses",
        status: "ok",
        detail: `REST 127.0.0.1:${port}, gRPC 127.0.0.1:0 (any free port): free`,
      },
    ]);
  });

  it("a port something else holds fails with the service's error code and fix", async () => {
    const port = await listening(createHttpServer((_request, response) => response.writeHead(404).end()));
    const result = await listeners("127.0.0.1:0", `127.0.0.1:${port}`);
    expect(result.checks).toEqual([
      {
        id: "listeners",
        title: "listen addresses",
        status: "fail",
        detail: `gRPC listener 127.0.0.1:${port} is in use [listen_address_in_use]`,
        fix: "stop what listens there, or choose another address (server.grpc / --grpc)",
      },
    ]);
  });

  it("a REST port where a Racksmith service answers is a warning: it runs already", async () => {
    const port = await listening(
      createHttpServer((request, response) => {
        const body = request.url === "/healthz" ? { status: "ok" } : { coreVersion: "0.1.0", plugins: [] };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      }),
    );
    const result = await listeners(`127.0.0.1:${port}`);
    expect(result.runningServiceAt).toBe(`127.0.0.1:${port}`);
    expect(result.checks).toEqual([
      expect.objectContaining({
        status: "warn",
        detail: `REST listener 127.0.0.1:${port} is in use: a Racksmith service (core 0.1.0) is already running there`,
        fix: "stop it before `racksmith serve`, or choose another address (server.http / --http)",
      }),
    ]);
  });

  it("a port number out of range", async () => {
    const result = await listeners("127.0.0.1:99999");
    expect(result.checks).toEqual([
      expect.objectContaining({
        status: "fail",
        detail: 'server.http must be host:port (e.g. 127.0.0.1:8080), got "127.0.0.1:99999"',
        fix: "edit racksmith.yaml: fix server.http",
      }),
    ]);
  });
});
