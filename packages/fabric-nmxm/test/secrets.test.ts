import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createNmxmFabric } from "../src/index.js";
import { capturingLogger, failure, startHarness } from "./support.js";

const PASSWORD = "s3cret-Pa55word-for-nmxm";

function leaks(text: string): boolean {
  const basic = Buffer.from(`admin:${PASSWORD}`).toString("base64");
  return text.includes(PASSWORD) || text.includes(basic);
}

describe("credentials never leak", () => {
  it("keeps the password out of errors and logs on every failure path", async () => {
    const h = await startHarness(
      { password: PASSWORD, domains: { domainCount: 1, gpusPerDomain: 4 } },
      { timeoutMs: 1_000 },
    );
    try {
      const seen: string[] = [];
      const record = (error: Error) => seen.push(error.message, JSON.stringify(error), String(error.stack));
      await h.fabric.listGpus(); // success logs too
      h.sim.failRequests(500);
      record(await failure(h.fabric.listGpus()));
      h.sim.setResponseDelay(5_000);
      record(await failure(h.fabric.listGpus()));
      h.sim.setResponseDelay(0);
      h.sim.setDown(true);
      record(await failure(h.fabric.listGpus()));
      h.sim.setDown(false);
      record(await failure(h.fabric.getOperation("missing")));
      expect(seen.length).toBeGreaterThan(0);
      for (const text of [...seen, ...h.logs]) expect(leaks(text)).toBe(false);
      expect(h.logs.some((line) => line.includes("NMX-M request"))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it("scrubs the password from an NMX-M error body that echoes the request", async () => {
    // A misbehaving proxy that reflects the Authorization header back in its error page.
    const server = createServer((request, response) => {
      const header = request.headers.authorization ?? "";
      const decoded = Buffer.from(header.replace("Basic ", ""), "base64").toString();
      response
        .writeHead(400, { "Content-Type": "text/plain" })
        .end(`bad request from ${header} (${decoded})`);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const dir = (await import("node:os")).tmpdir();
    const file = `${dir}/racksmith-nmxm-echo-${process.pid}`;
    await writeFile(file, PASSWORD);
    const logs: string[] = [];
    const fabric = await createNmxmFabric(
      { endpoint: `http://127.0.0.1:${port}`, username: "admin", passwordFile: file },
      { logger: capturingLogger(logs) },
    );
    try {
      const error = await failure(fabric.listGpus());
      expect(error.code).toBe("fabric_rejected");
      expect(error.message).toContain("[redacted]");
      expect(leaks(error.message)).toBe(false);
      expect(logs.some(leaks)).toBe(false);
    } finally {
      await fabric.close();
      server.close();
    }
  });
});
