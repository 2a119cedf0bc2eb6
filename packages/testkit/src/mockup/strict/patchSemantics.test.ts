import { beforeAll, describe, expect, it } from "vitest";
import { TINY_FULL } from "../__fixtures__/paths.js";
import type { JsonObject } from "../json.js";
import { MockupService, type MockupServiceOptions } from "../mockupService.js";
import { MockupTree } from "../mockupTree.js";
import type { MockupResponse } from "../types.js";

const SYSTEM = "/redfish/v1/Systems/1";
const SETTINGS = "/redfish/v1/Systems/1/Bios/Settings";
const ACCOUNT = "/redfish/v1/AccountService/Accounts/2";
let tree: MockupTree;

beforeAll(async () => {
  tree = await MockupTree.open(TINY_FULL);
});

const serviceWith = (options: MockupServiceOptions = {}) => new MockupService(tree, options);
const patch = (service: MockupService, path: string, body: JsonObject) =>
  service.handle({ method: "PATCH", path, body });
const bodyOf = (response: MockupResponse): JsonObject => response.body as JsonObject;

/** `[MessageId suffix, first MessageArg]` of each extended info entry, in a body or in its `error`. */
function messages(response: MockupResponse): Array<[string, unknown]> {
  const body = bodyOf(response);
  const holder = (body.error as JsonObject | undefined) ?? body;
  const info = (holder["@Message.ExtendedInfo"] ?? []) as JsonObject[];
  return info.map((entry) => [
    String(entry.MessageId).split(".").pop() ?? "",
    (entry.MessageArgs as unknown[])[0],
  ]);
}

async function stored(service: MockupService, path: string): Promise<JsonObject> {
  const body = await service.read(path);
  if (!body) throw new Error(`${path} is missing`);
  return body;
}

async function bootOrder(service: MockupService): Promise<unknown> {
  return ((await stored(service, SYSTEM)).Boot as JsonObject).BootOrder;
}

async function withBootOrder(service: MockupService, order: string[]): Promise<void> {
  const system = await stored(service, SYSTEM);
  service.write(SYSTEM, { ...system, Boot: { ...(system.Boot as JsonObject), BootOrder: order } });
}

describe("strict PATCH: unknown and read-only properties", () => {
  it("refuses a PATCH of only an unknown property with 400 PropertyUnknown and changes nothing", async () => {
    const service = serviceWith();
    const before = await service.handle({ method: "GET", path: SYSTEM });
    const answer = await patch(service, SYSTEM, { AssetTagTypo: "rack-1" });
    expect(answer.status).toBe(400);
    expect(messages(answer)).toEqual([["PropertyUnknown", "AssetTagTypo"]]);
    const after = await service.handle({ method: "GET", path: SYSTEM });
    expect(after.body).toEqual(before.body);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it("applies the valid part of a mixed PATCH and answers 200 naming what it ignored", async () => {
    const service = serviceWith();
    const answer = await patch(service, SYSTEM, {
      Boot: { BootSourceOverrideTarget: "Pxe", BootSourceOverrideFoo: "x" },
      Nope: 1,
    });
    expect(answer.status).toBe(200);
    expect(messages(answer)).toEqual([
      ["PropertyUnknown", "Boot/BootSourceOverrideFoo"],
      ["PropertyUnknown", "Nope"],
    ]);
    const system = await stored(service, SYSTEM);
    expect((system.Boot as JsonObject).BootSourceOverrideTarget).toBe("Pxe");
    expect(system.Boot).not.toHaveProperty("BootSourceOverrideFoo");
    expect(system).not.toHaveProperty("Nope");
    expect(bodyOf(answer)).toMatchObject({ "@odata.id": SYSTEM, Boot: system.Boot });
    expect(answer.headers.etag).toBe((await service.handle({ method: "GET", path: SYSTEM })).headers.etag);
  });

  it("refuses read-only properties with 400 PropertyNotWritable", async () => {
    const service = serviceWith();
    const answer = await patch(service, SYSTEM, { Id: "2", "@odata.id": "/elsewhere" });
    expect(answer.status).toBe(400);
    expect(messages(answer)).toEqual([
      ["PropertyNotWritable", "Id"],
      ["PropertyNotWritable", "@odata.id"],
    ]);
    expect((await service.read(SYSTEM))?.Id).toBe("1");
  });

  it("still answers 204 to a valid PATCH and to an empty one", async () => {
    const service = serviceWith();
    expect((await patch(service, SYSTEM, { Name: "renamed" })).status).toBe(204);
    expect((await service.read(SYSTEM))?.Name).toBe("renamed");
    expect((await patch(service, SYSTEM, {})).status).toBe(204);
  });

  it("knows BIOS attributes from the parent Bios, and creates no settings object for only unknown ones", async () => {
    const service = serviceWith();
    const refused = await patch(service, SETTINGS, { Attributes: { NoSuchAttribute: 1 } });
    expect(refused.status).toBe(400);
    expect(messages(refused)).toEqual([["PropertyUnknown", "Attributes/NoSuchAttribute"]]);
    expect(await service.read(SETTINGS)).toBeUndefined();

    const created = await patch(service, SETTINGS, {
      Attributes: { BootMode: "Legacy", NoSuchAttribute: 1 },
    });
    expect(created.status).toBe(200);
    expect((await service.read(SETTINGS))?.Attributes).toEqual({ BootMode: "Legacy" });
    // The settings object now exists with one attribute; the Bios's other attributes stay patchable.
    expect((await patch(service, SETTINGS, { Attributes: { Hyperthreading: "Disabled" } })).status).toBe(204);
    expect((await service.read(SETTINGS))?.Attributes).toEqual({
      BootMode: "Legacy",
      Hyperthreading: "Disabled",
    });
  });

  it("takes an account's write-only Password and never shows it", async () => {
    const service = serviceWith();
    const { Password: _shown, ...account } = await stored(service, ACCOUNT);
    service.write(ACCOUNT, account);
    const answer = await patch(service, ACCOUNT, { Password: "n3w-secret", Nickname: "op" });
    expect(answer.status).toBe(200);
    expect(messages(answer)).toEqual([["PropertyUnknown", "Nickname"]]);
    expect(bodyOf(answer)).not.toHaveProperty("Password");
    expect(service.state.accounts.get("operator")).toBe("n3w-secret");
  });
});

describe("strict PATCH: arrays", () => {
  it("keeps an element for {}, removes it for null, and drops elements past the end of the request", async () => {
    const service = serviceWith();
    await withBootOrder(service, ["Boot0001", "Boot0002", "Boot0003", "Boot0004"]);
    const answer = await patch(service, SYSTEM, { Boot: { BootOrder: [{}, null, "Boot0009"] } });
    expect(answer.status).toBe(204);
    expect(await bootOrder(service)).toEqual(["Boot0001", "Boot0009"]);
    await patch(service, SYSTEM, { Boot: { BootOrder: [{}, {}, "Boot0010"] } });
    expect(await bootOrder(service)).toEqual(["Boot0001", "Boot0009", "Boot0010"]);
  });

  it("can be relaxed on its own while unknown properties are still refused", async () => {
    const service = serviceWith({ lenient: ["patchArrays"] });
    await withBootOrder(service, ["Boot0001", "Boot0002"]);
    await patch(service, SYSTEM, { Boot: { BootOrder: [{}] } });
    expect(await bootOrder(service)).toEqual([{}]);
    expect((await patch(service, SYSTEM, { Nope: 1 })).status).toBe(400);
  });
});

describe("lenient PATCH (strict: false)", () => {
  it("answers 204, stores unknown and read-only properties, and replaces arrays whole", async () => {
    const service = serviceWith({ strict: false });
    const answer = await patch(service, SYSTEM, { AssetTagTypo: "rack-1", Boot: { Foo: "x" } });
    expect(answer.status).toBe(204);
    expect(answer.headers.etag).toMatch(/^"[^"]+"$/);
    const system = await stored(service, SYSTEM);
    expect(system.AssetTagTypo).toBe("rack-1");
    expect((system.Boot as JsonObject).Foo).toBe("x");

    expect((await patch(service, SYSTEM, { Id: "renamed" })).status).toBe(204);
    expect((await service.read(SYSTEM))?.Id).toBe("renamed");

    await withBootOrder(service, ["Boot0001", "Boot0002", "Boot0003"]);
    await patch(service, SYSTEM, { Boot: { BootOrder: [{}, null] } });
    expect(await bootOrder(service)).toEqual([{}, null]);
  });
});
