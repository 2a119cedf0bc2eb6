import { silentLogger } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type LoadedConfig } from "../config/index.js";
import type { ServiceFeature } from "./feature.js";
import { startService } from "./startService.js";

const config: LoadedConfig = {
  config: { ...structuredClone(DEFAULT_CONFIG), server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" } },
  file: undefined,
  baseDir: process.cwd(),
};

describe("service features", () => {
  it("add routes and readiness checks, start after the engine and stop before it", async () => {
    const events: string[] = [];
    const feature: ServiceFeature = {
      name: "greeter",
      async setup(context) {
        events.push(`setup (engine ${context.engine.processorId ? "built" : "missing"})`);
        return {
          rest: (app) =>
            app.get("/api/v1/hello", { schema: { summary: "say hello" } }, async () => ({ hello: "world" })),
          readiness: async () => [{ name: "greeter", ok: false, detail: "warming up" }],
          start: async () => void events.push("start"),
          stop: async () => void events.push("stop"),
        };
      },
    };
    const service = await startService({
      config,
      logger: silentLogger,
      features: [feature],
      inMemoryDatabase: true,
      accessRules: { "GET /api/v1/hello": { roles: ["viewer"], mutates: false } },
    });
    const base = `http://127.0.0.1:${service.http.port}`;
    const hello = (authorization?: string) =>
      fetch(`${base}/api/v1/hello`, authorization ? { headers: { authorization } } : {});
    expect((await hello()).status).toBe(401);
    // The feature's rule admits viewers only: the admin token is refused.
    expect((await hello(`Bearer ${service.adminToken}`)).status).toBe(403);
    const viewer = await fetch(`${base}/api/v1/auth/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${service.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ role: "viewer" }),
    });
    const { token } = (await viewer.json()) as { token: string };
    expect(await (await hello(`Bearer ${token}`)).json()).toEqual({ hello: "world" });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toContain("warming up");
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths)).toContain("/api/v1/hello");
    await service.stop();
    expect(events).toEqual(["setup (engine built)", "start", "stop"]);
    // A safety net: opening and migrating the embedded database has taken over 30 s on a busy CI machine.
  }, 180_000);
});
