import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TINY_FULL, TINY_REDFISH_FOLDER, TINY_SHORT } from "./__fixtures__/paths.js";
import { MockupRootNotFoundError } from "./errors.js";
import type { JsonObject } from "./json.js";
import { MockupService } from "./mockupService.js";
import { MockupTree } from "./mockupTree.js";

describe("layout detection", () => {
  it.each([
    [TINY_FULL, "full"],
    [TINY_REDFISH_FOLDER, "redfish-folder"],
    [TINY_SHORT, "short"],
  ])("detects %s as %s", async (directory, kind) => {
    const tree = await MockupTree.open(directory);
    expect(tree.layout.kind).toBe(kind);
    const root = await tree.read("/redfish/v1");
    expect(root?.kind).toBe("json");
  });

  it("serves a short-form tree like any other", async () => {
    const service = await MockupService.open(TINY_SHORT);
    const system = await service.handle({ method: "GET", path: "/redfish/v1/Systems/437XR1138R2" });
    expect(system.status).toBe(200);
    expect((system.body as JsonObject).PowerState).toBe("On");
    const metadata = await service.handle({ method: "GET", path: "/redfish/v1/$metadata" });
    expect(metadata.headers["content-type"]).toBe("application/xml");
    expect(await service.read("/redfish/v1/")).toMatchObject({ Name: "Short Form Root" });
  });

  it("refuses a folder that holds no service root, naming what it looked for", async () => {
    const empty = await mkdtemp(join(tmpdir(), "racksmith-empty-"));
    try {
      const error = await MockupTree.open(empty).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MockupRootNotFoundError);
      expect((error as MockupRootNotFoundError).code).toBe("mockup_root_not_found");
      expect((error as Error).message).toContain(join(empty, "redfish", "v1", "index.json"));
    } finally {
      await rm(empty, { recursive: true });
    }
  });
});

describe("lookups", () => {
  it("tries each segment as written, decoded, then case-insensitively", async () => {
    const tree = await MockupTree.open(TINY_FULL);
    const bios = await tree.read("/redfish/v1/Systems/1/Bios");
    expect(bios).toBeDefined();
    for (const spelling of [
      "/redfish/v1/systems/1/BIOS/",
      "/Redfish/V1/Systems/1/Bios",
      "/redfish/v1/Systems/%31/Bios",
    ]) {
      expect(await tree.read(spelling), spelling).toBe(bios);
    }
    expect(await tree.read("/redfish/v1/%24metadata")).toMatchObject({
      kind: "text",
      contentType: "application/xml",
    });
    expect(await tree.read("/redfish/v1/Systems/1/../1")).toBeUndefined();
    expect(await tree.read("/redfish/v2/Systems")).toBeUndefined();
  });

  it("is shared read-only: each service keeps its own changes", async () => {
    const tree = await MockupTree.open(TINY_FULL);
    const one = new MockupService(tree);
    const two = new MockupService(tree);
    const answer = await one.handle({
      method: "PATCH",
      path: "/redfish/v1/Systems/1",
      body: { Name: "one" },
    });
    expect(answer.status).toBe(204);
    expect(await one.read("/redfish/v1/Systems/1")).toHaveProperty("Name", "one");
    expect(await two.read("/redfish/v1/Systems/1")).not.toHaveProperty("Name", "one");
    const original = await tree.read("/redfish/v1/Systems/1");
    expect(original?.kind === "json" ? original.body : {}).not.toHaveProperty("Name", "one");
  });
});

describe("server-driven paging", () => {
  it("answers collections larger than pageSize a page at a time", async () => {
    const service = await MockupService.open(TINY_FULL, { pageSize: 2 });
    const pages: string[][] = [];
    let next: string | undefined = "/redfish/v1/Systems/1/Memory";
    while (next) {
      const answer = await service.handle({ method: "GET", path: next });
      const body = answer.body as JsonObject;
      expect(body["Members@odata.count"]).toBe(5);
      pages.push((body.Members as JsonObject[]).map((m) => String(m["@odata.id"]).split("/").pop() ?? ""));
      next = body["Members@odata.nextLink"] as string | undefined;
    }
    expect(pages).toEqual([["DIMM1", "DIMM2"], ["DIMM3", "DIMM4"], ["DIMM5"]]);
    const small = await service.handle({ method: "GET", path: "/redfish/v1/Systems" });
    expect(small.body).not.toHaveProperty("Members@odata.nextLink");
  });
});

describe("tasks", () => {
  it("reads Running until the clock passes the duration, then Completed (no timer)", async () => {
    let now = 1_000_000;
    const service = await MockupService.open(TINY_FULL, { taskDurationMs: 5_000, now: () => now });
    const task = await service.createTask({ name: "Flash", payload: { ImageURI: "http://x/fw.bin" } });
    expect(task.task).toMatchObject({
      TaskState: "Running",
      Name: "Flash",
      Payload: { ImageURI: "http://x/fw.bin" },
    });
    expect((await service.handle({ method: "GET", path: task.monitorPath })).status).toBe(202);
    now += 4_999;
    expect(await service.read(task.taskPath)).toHaveProperty("TaskState", "Running");
    now += 1;
    const monitor = await service.handle({ method: "GET", path: task.monitorPath });
    expect(monitor.status).toBe(200);
    expect(monitor.body).toMatchObject({ TaskState: "Completed", PercentComplete: 100 });
  });
});
