import { RedfishClient } from "@racksmith/core/redfish";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { http, messageIds } from "./__fixtures__/http.js";
import { TINY_FULL } from "./__fixtures__/paths.js";
import type { JsonObject } from "./json.js";
import { MockupServer } from "./mockupServer.js";

let server: MockupServer;
let client: RedfishClient;
const get = (path: string, headers?: Record<string, string>) =>
  http(server.url, "GET", path, { ...(headers ? { headers } : {}) });
const patch = (path: string, body: unknown, headers?: Record<string, string>) =>
  http(server.url, "PATCH", path, { body, ...(headers ? { headers } : {}) });
const post = (path: string, body?: unknown, headers?: Record<string, string>) =>
  http(server.url, "POST", path, {
    ...(body !== undefined ? { body } : {}),
    ...(headers ? { headers } : {}),
  });
const del = (path: string) => http(server.url, "DELETE", path);

beforeAll(async () => {
  server = await MockupServer.start({ root: TINY_FULL, taskDurationMs: 60 });
  client = new RedfishClient({ address: server.url, retry: { retries: 0 } });
});

afterAll(async () => {
  await client.close();
  await server.stop();
});

describe("GET", () => {
  it("serves /redfish and the service root with and without a trailing slash", async () => {
    expect((await get("/redfish")).json).toEqual({ v1: "/redfish/v1/" });
    const root = await get("/redfish/v1");
    const slash = await get("/redfish/v1/");
    expect(root.status).toBe(200);
    expect(root.json["@odata.id"]).toBe("/redfish/v1");
    expect(slash.json).toEqual(root.json);
  });

  it("sends OData headers, a strong quoted ETag, and strips @Redfish.Copyright", async () => {
    const root = await get("/redfish/v1");
    expect(root.headers.get("odata-version")).toBe("4.0");
    expect(root.headers.get("content-type")).toMatch(/^application\/json/);
    expect(root.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(root.text).not.toContain("@Redfish.Copyright");
    expect((await get("/redfish/v1/Systems")).text).not.toContain("@Redfish.Copyright");
  });

  it("serves $metadata as XML", async () => {
    const metadata = await get("/redfish/v1/$metadata");
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(metadata.text).toMatch(/^<\?xml/);
    expect(await client.get("/redfish/v1/odata")).toHaveProperty("value");
  });

  it("merges captured headers.json GET headers under its own", async () => {
    const system = await get("/redfish/v1/Systems/1");
    expect(system.headers.get("allow")).toBe("GET, PATCH");
    expect(system.headers.get("link")).toContain("describedby");
    expect(system.headers.get("content-length")).not.toBe("999");
    await patch("/redfish/v1/Systems/1", { AssetTag: "kept-headers" });
    expect((await get("/redfish/v1/Systems/1")).headers.get("allow")).toBe("GET, PATCH");
  });

  it("answers an unknown path with 404 and ResourceMissingAtURI", async () => {
    const missing = await get("/redfish/v1/Systems/nope");
    expect(missing.status).toBe(404);
    expect((missing.json.error as JsonObject).code).toBe("Base.1.8.GeneralError");
    expect(messageIds(missing.json)).toEqual(["Base.1.8.ResourceMissingAtURI"]);
    expect((await get("/not-redfish")).status).toBe(404);
  });

  it("answers HEAD like GET without a body, and a URL it cannot decode with a Redfish 400", async () => {
    const head = await http(server.url, "HEAD", "/redfish/v1/Systems");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("etag")).toBe((await get("/redfish/v1/Systems")).headers.get("etag"));
    const bad = await get("/redfish/v1/Systems/%E0%A4%A");
    expect(bad.status).toBe(400);
    expect((bad.json.error as JsonObject).code).toBe("Base.1.8.GeneralError");
  });

  it("resolves paths case- and trailing-slash-insensitively and percent-decoded", async () => {
    const canonical = await get("/redfish/v1/Systems/1/Bios");
    expect((await get("/redfish/v1/systems/1/bios/")).json).toEqual(canonical.json);
    expect((await get("/redfish/v1/%53ystems/1/Bios")).json).toEqual(canonical.json);
  });
});

describe("query options", () => {
  const memory = "/redfish/v1/Systems/1/Memory";
  const ids = (body: JsonObject) =>
    (body.Members as JsonObject[]).map((m) => String(m["@odata.id"]).split("/").pop());

  it("pages with $top and $skip, keeping the full count and a next link while members remain", async () => {
    const first = (await get(`${memory}?$top=2`)).json;
    expect(ids(first)).toEqual(["DIMM1", "DIMM2"]);
    expect(first["Members@odata.count"]).toBe(5);
    expect(first["Members@odata.nextLink"]).toBe(`${memory}?$skip=2&$top=2`);
    const last = (await get(`${memory}?$skip=4&$top=2`)).json;
    expect(ids(last)).toEqual(["DIMM5"]);
    expect(last).not.toHaveProperty("Members@odata.nextLink");
    expect(await client.listMembers(`${memory}?$top=2`)).toHaveLength(5);
  });

  it("expands members with $expand=. and $expand=*($levels=1)", async () => {
    for (const expand of [".", "*", ".($levels=1)"]) {
      const body = (await get(`${memory}?$expand=${expand}`)).json;
      const members = body.Members as JsonObject[];
      expect(members).toHaveLength(5);
      expect(members[2]).toMatchObject({ Id: "DIMM3", CapacityMiB: 32768 });
    }
    const paged = (await get(`${memory}?$expand=.&$top=1&$skip=1`)).json;
    expect((paged.Members as JsonObject[]).map((m) => m.Id)).toEqual(["DIMM2"]);
  });

  it("expands only Links with ~ and everything but Links with .", async () => {
    const dependents = (await get("/redfish/v1/Systems/1?$expand=~")).json;
    expect(((dependents.Links as JsonObject).ManagedBy as JsonObject[])[0]).toHaveProperty(
      "ManagerType",
      "BMC",
    );
    expect(dependents.Bios).toEqual({ "@odata.id": "/redfish/v1/Systems/1/Bios" });
    const subordinates = (await get("/redfish/v1/Systems/1?$expand=.")).json;
    expect(subordinates.Bios).toHaveProperty("Attributes");
    expect(((subordinates.Links as JsonObject).ManagedBy as JsonObject[])[0]).toEqual({
      "@odata.id": "/redfish/v1/Managers/BMC",
    });
  });

  it("rejects malformed query values with 400", async () => {
    for (const query of ["$top=-1", "$skip=x", "$expand=everything"]) {
      const answer = await get(`${memory}?${query}`);
      expect(answer.status).toBe(400);
      expect(messageIds(answer.json)).toEqual(["Base.1.8.QueryParameterValueFormatError"]);
    }
  });
});

describe("PATCH", () => {
  const subscription = "/redfish/v1/EventService/Subscriptions/1";

  it("lenient (strict: false): deep-merges objects, replaces arrays, sets null, and bumps the ETag", async () => {
    const lenient = await MockupServer.start({ root: TINY_FULL, strict: false });
    const get = (path: string) => http(lenient.url, "GET", path);
    const before = await get("/redfish/v1/Systems/1");
    const answer = await http(lenient.url, "PATCH", "/redfish/v1/Systems/1", {
      body: {
        Boot: {
          BootSourceOverrideTarget: "Pxe",
          "BootSourceOverrideTarget@Redfish.AllowableValues": ["Pxe"],
        },
        Status: null,
      },
    });
    expect(answer.status).toBe(204);
    const after = await get("/redfish/v1/Systems/1");
    await lenient.stop();
    expect(after.json.Boot).toEqual({
      BootSourceOverrideEnabled: "Disabled",
      BootSourceOverrideTarget: "Pxe",
      BootSourceOverrideMode: "UEFI",
      "BootSourceOverrideTarget@Redfish.AllowableValues": ["Pxe"],
    });
    expect(after.json.Status).toBeNull();
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect(answer.headers.get("etag")).toBe(after.headers.get("etag"));
  });

  it("honours If-Match: 412 on a stale ETag, weak/unquoted/* forms accepted", async () => {
    const stale = (await get(subscription)).headers.get("etag") ?? "";
    expect((await patch(subscription, { Context: "a" }, { "if-match": stale })).status).toBe(204);
    const refused = await patch(subscription, { Context: "b" }, { "if-match": stale });
    expect(refused.status).toBe(412);
    expect(messageIds(refused.json)).toEqual(["Base.1.8.PreconditionFailed"]);
    expect((await get(subscription)).json.Context).toBe("a");

    const current = (await get(subscription)).headers.get("etag") ?? "";
    expect((await patch(subscription, { Context: "c" }, { "if-match": `W/${current}` })).status).toBe(204);
    const next = ((await get(subscription)).headers.get("etag") ?? "").replace(/"/g, "");
    expect((await patch(subscription, { Context: "d" }, { "if-match": next })).status).toBe(204);
    expect((await patch(subscription, { Context: "e" }, { "if-match": "*" })).status).toBe(204);
    await client.patch(subscription, { Context: "f" }, { ifMatch: "auto" });
    expect((await client.get(subscription)).Context).toBe("f");
  });

  it("refuses bad JSON (400), a missing resource (404) and a collection (405)", async () => {
    const bad = await http(server.url, "PATCH", subscription, {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(messageIds(bad.json)).toEqual(["Base.1.8.MalformedJSON"]);
    expect((await patch(subscription, [1, 2])).status).toBe(400);
    expect((await patch("/redfish/v1/Systems/2", { Name: "x" })).status).toBe(404);
    expect((await patch("/redfish/v1/Systems", { Name: "x" })).status).toBe(405);
  });
});

describe("POST and DELETE", () => {
  const subscriptions = "/redfish/v1/EventService/Subscriptions";

  it("creates a member with the next id, 201 + Location, and fixes Members", async () => {
    const created = await post(subscriptions, {
      Destination: "https://other.example/events",
      Protocol: "Redfish",
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`${subscriptions}/2`);
    expect(created.json).toMatchObject({ Id: "2", "@odata.id": `${subscriptions}/2`, Protocol: "Redfish" });
    expect(created.json["@odata.type"]).toBe("#EventDestination.EventDestination");
    const collection = (await get(subscriptions)).json;
    expect(collection["Members@odata.count"]).toBe(2);
    expect((await get(`${subscriptions}/2`)).json.Destination).toBe("https://other.example/events");
  });

  it("deletes a member (204), then 404; refuses collections and non-members (405)", async () => {
    const created = await post(subscriptions, { Destination: "https://gone.example" });
    const location = created.headers.get("location") ?? "";
    const count = (await get(subscriptions)).json["Members@odata.count"] as number;
    expect((await del(location)).status).toBe(204);
    expect((await get(location)).status).toBe(404);
    expect((await del(location)).status).toBe(404);
    const after = (await get(subscriptions)).json;
    expect(after["Members@odata.count"]).toBe(count - 1);
    expect(JSON.stringify(after.Members)).not.toContain(location);
    expect((await del(subscriptions)).status).toBe(405);
    expect((await del("/redfish/v1/Systems/1/Bios")).status).toBe(405);
  });

  it("refuses POST to a plain resource (405), invalid JSON (400) and unadvertised actions (404)", async () => {
    expect((await post("/redfish/v1/Systems/1", { Name: "x" })).status).toBe(405);
    const bad = await http(server.url, "POST", subscriptions, {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    const unknown = await post("/redfish/v1/Systems/1/Actions/ComputerSystem.Explode", {});
    expect(unknown.status).toBe(404);
    expect(messageIds(unknown.json)).toEqual(["Base.1.8.ActionNotSupported"]);
  });

  it("logs in with a session (201, X-Auth-Token, Location) and logs out with DELETE", async () => {
    const login = await post("/redfish/v1/SessionService/Sessions", {
      UserName: "root",
      Password: "racksmith",
    });
    expect(login.status).toBe(201);
    expect(login.headers.get("x-auth-token")).toMatch(/^[0-9a-f]{32}$/);
    const location = login.headers.get("location") ?? "";
    expect(login.json).toMatchObject({ UserName: "root", "@odata.id": location });
    expect(login.text).not.toContain("racksmith");
    expect((await del(location)).status).toBe(204);
    expect((await get(location)).status).toBe(404);
  });
});

describe("actions", () => {
  const system = "/redfish/v1/Systems/1";
  const reset = (resetType?: string) =>
    post(`${system}/Actions/ComputerSystem.Reset`, resetType === undefined ? {} : { ResetType: resetType });

  it("applies pending BIOS settings (created on first PATCH) and a one-time boot override on restart", async () => {
    expect((await get(`${system}/Bios/Settings`)).status).toBe(404);
    expect(
      (await patch(`${system}/Bios/Settings`, { Attributes: { SriovGlobalEnable: "Enabled" } })).status,
    ).toBe(204);
    expect((await get(`${system}/Bios/Settings`)).json.Attributes).toEqual({ SriovGlobalEnable: "Enabled" });
    await patch(system, { Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "Pxe" } });
    expect((await get(`${system}/Bios`)).json.Attributes).toMatchObject({ SriovGlobalEnable: "Disabled" });

    expect((await reset("ForceRestart")).status).toBe(204);

    const after = (await get(system)).json;
    expect(after.PowerState).toBe("On");
    expect(after.Boot).toMatchObject({
      BootSourceOverrideEnabled: "Disabled",
      BootSourceOverrideTarget: "None",
    });
    expect((await get(`${system}/Bios`)).json.Attributes).toMatchObject({
      SriovGlobalEnable: "Enabled",
      BootMode: "Uefi",
    });
    expect((await get(`${system}/Bios/Settings`)).json.Attributes).toEqual({});
  });

  it("changes PowerState per ResetType and applies pending BIOS only when the system comes up", async () => {
    expect((await reset("ForceOff")).status).toBe(204);
    expect((await get(system)).json.PowerState).toBe("Off");
    await patch(`${system}/Bios/Settings`, { Attributes: { Hyperthreading: "Disabled" } });
    await reset("GracefulShutdown");
    expect((await get(`${system}/Bios`)).json.Attributes).toMatchObject({ Hyperthreading: "Enabled" });
    await reset("PushPowerButton");
    expect((await get(system)).json.PowerState).toBe("On");
    expect((await get(`${system}/Bios`)).json.Attributes).toMatchObject({ Hyperthreading: "Disabled" });
    await reset("Nmi");
    expect((await get(system)).json.PowerState).toBe("On");
    await reset("PushPowerButton");
    expect((await get(system)).json.PowerState).toBe("Off");
    await reset("On");
    expect((await get(system)).json.PowerState).toBe("On");
  });

  it("validates ResetType against the allowable values", async () => {
    const refused = await reset("ForceOn");
    expect(refused.status).toBe(400);
    expect(messageIds(refused.json)).toEqual(["Base.1.8.ActionParameterValueNotInList"]);
    const missing = await reset();
    expect(messageIds(missing.json)).toEqual(["Base.1.8.ActionParameterMissing"]);
  });

  it("answers other advertised actions (standard and OEM) with 204 and logs every invocation", async () => {
    const before = server.actions.length;
    expect(
      (await post("/redfish/v1/Managers/BMC/Actions/Manager.Reset", { ResetType: "GracefulRestart" })).status,
    ).toBe(204);
    expect((await post(`${system}/Bios/Actions/Bios.ResetBios`)).status).toBe(204);
    expect((await post(`${system}/actions/oem/racksmithsystem.blink/`, {})).status).toBe(204);
    expect(server.actions.slice(before).map((a) => a.action)).toEqual([
      "#Manager.Reset",
      "#Bios.ResetBios",
      "#RacksmithSystem.Blink",
    ]);
    expect(server.actions[before]?.body).toEqual({ ResetType: "GracefulRestart" });
  });

  it("runs SimpleUpdate as a Task: 202 + monitor, Running, then Completed", async () => {
    // A task completes by the service's clock (Date.now, read when the task is read). Frozen here, so the task
    // is still Running however slowly the requests go, until the test moves the clock past its duration.
    vi.useFakeTimers({ toFake: ["Date"] });
    const updates = await MockupServer.start({ root: TINY_FULL, taskDurationMs: 60 });
    const tasksClient = new RedfishClient({ address: updates.url, retry: { retries: 0 } });
    try {
      const accepted = await http(
        updates.url,
        "POST",
        "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate",
        { body: { ImageURI: "http://images.example/bmc.bin", TransferProtocol: "HTTP" } },
      );
      expect(accepted.status).toBe(202);
      const monitor = accepted.headers.get("location") ?? "";
      expect(monitor).toMatch(/^\/redfish\/v1\/TaskService\/Tasks\/\d+\/Monitor$/);
      expect(accepted.json.TaskState).toBe("Running");
      vi.advanceTimersByTime(59);
      const running = await http(updates.url, "GET", monitor);
      expect(running.status).toBe(202);
      expect(running.json.TaskState).toBe("Running");
      const task = String(accepted.json["@odata.id"]);
      const tasks = (await http(updates.url, "GET", "/redfish/v1/TaskService/Tasks")).json;
      expect(JSON.stringify(tasks.Members)).toContain(task);

      vi.advanceTimersByTime(1);
      const result = await tasksClient.waitForTask(monitor, { pollMs: 20, maxPollMs: 40, timeoutMs: 5_000 });
      expect(result.state).toBe("Completed");
      expect((await http(updates.url, "GET", monitor)).status).toBe(200);
      expect((await http(updates.url, "GET", task)).json).toMatchObject({
        TaskState: "Completed",
        PercentComplete: 100,
      });
    } finally {
      vi.useRealTimers();
      await tasksClient.close();
      await updates.stop();
    }
  });

  it("accepts firmware pushes (octet-stream and multipart) as Tasks", async () => {
    const pushed = await http(server.url, "POST", "/redfish/v1/UpdateService/update", {
      body: new Uint8Array([1, 2, 3, 4]),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(pushed.status).toBe(202);
    const multipart = await client.postMultipart("/redfish/v1/UpdateService/upload", {
      parameters: { Targets: [] },
      file: { filename: "bmc.bin", data: new Uint8Array(2048) },
    });
    expect(multipart.status).toBe(202);
    expect(multipart.location).toMatch(/\/Monitor$/);
    const uploads = server.actions.filter((a) => a.action.endsWith("PushUri"));
    expect(uploads.map((a) => a.action)).toEqual(["HttpPushUri", "MultipartHttpPushUri"]);
    expect(uploads[0]?.body).toMatchObject({ Bytes: 4 });
  });
});
