import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { RedfishClient } from "@racksmith/core/redfish";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_FULL } from "../mockup/__fixtures__/paths.js";
import { MockupServer } from "../mockup/mockupServer.js";
import { presentSharedVendors, sharedMockup } from "../sharedMockups/index.js";
import {
  RecorderAuthenticationError,
  RecorderOutputNotEmptyError,
  RecorderServiceRootError,
} from "./errors.js";
import { type RecordProgress, recordMockup } from "./recordMockup.js";

/** Unusual on purpose: neither appears in any capture, so finding them in a recording means a leak. */
const CREDENTIALS = { username: "rec-probe-user", password: "Rec0rder-Pa55-x9" };

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "racksmith-recorder-"));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Every file under a folder, relative paths with `/`. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join("/"));
}

/** `redfish/v1/Systems/1/index.json` → `/redfish/v1/Systems/1` (segments encoded as a client would send them). */
function requestPathOf(file: string): string {
  const segments = file.split("/").slice(0, -1);
  return `/${segments.map((segment) => encodeURIComponent(segment)).join("/")}`;
}

async function assertNoCredentials(folder: string): Promise<void> {
  for (const file of await filesUnder(folder)) {
    const text = await readFile(join(folder, file), "utf8");
    expect(text.includes(CREDENTIALS.password), `${file} holds the password`).toBe(false);
    expect(text.includes(CREDENTIALS.username), `${file} holds the user name`).toBe(false);
  }
}

async function assertServedIdentically(original: MockupServer, recording: string): Promise<number> {
  const replay = await MockupServer.start({ root: recording });
  const source = new RedfishClient({
    address: original.url,
    credentials: CREDENTIALS,
    retry: { retries: 0 },
  });
  const copy = new RedfishClient({ address: replay.url, retry: { retries: 0 } });
  try {
    const files = (await filesUnder(recording)).filter(
      (file) => file.startsWith("redfish/v1/") && file.endsWith("/index.json"),
    );
    for (const file of files) {
      // Live state: the recorder's own login was a member while it recorded, and is gone now.
      if (file === "redfish/v1/SessionService/Sessions/index.json") continue;
      const path = requestPathOf(file);
      const [expected, actual] = await Promise.all([source.get(path), copy.get(path)]);
      expect(actual, path).toEqual(expected);
    }
    return files.length;
  } finally {
    await source.close();
    await copy.close();
    await replay.stop();
  }
}

describe("recording the tiny mockup", () => {
  let server: MockupServer;

  beforeAll(async () => {
    server = await MockupServer.start({ root: TINY_FULL, auth: "session", credentials: CREDENTIALS });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("writes a full-form tree that serves back identically, without credentials or tokens", async () => {
    const out = join(scratch, "tiny");
    const progress: RecordProgress[] = [];
    const result = await recordMockup({
      address: server.url,
      credentials: CREDENTIALS,
      auth: "session",
      out,
      onProgress: (p) => progress.push(p),
    });
    expect(result.out).toBe(out);
    // The tiny Bios advertises a settings object that only exists once something is pending.
    expect(result.errors.map((e) => e.path)).toEqual(["/redfish/v1/Systems/1/Bios/Settings"]);
    expect(result.resources).toBe(progress.at(-1)?.recorded);
    const files = await filesUnder(out);
    expect(files).toContain("redfish/index.json");
    expect(files).toContain("redfish/v1/index.json");
    expect(files).toContain("redfish/v1/$metadata/index.xml");
    expect(files).toContain("redfish/v1/odata/index.json");
    expect(files).toContain("redfish/v1/Systems/1/Memory/DIMM5/index.json");
    expect(files.filter((f) => f.startsWith("redfish/v1/SessionService/Sessions/")).sort()).toEqual([
      "redfish/v1/SessionService/Sessions/index.json",
    ]);
    expect(await readFile(join(out, "redfish/v1/Systems/index.json"), "utf8")).toMatch(
      /^\{\n {4}"@odata.id"/,
    );
    const readme = await readFile(join(out, "README"), "utf8");
    expect(readme).toContain(`Service: ${server.url}`);
    expect(readme).toContain(`Resources: ${result.resources}`);
    await assertNoCredentials(out);
    expect(await assertServedIdentically(server, out)).toBe(result.resources);
  });

  it("honours member and depth limits and include/exclude globs", async () => {
    const limited = await recordMockup({
      address: server.url,
      credentials: CREDENTIALS,
      out: join(scratch, "limited"),
      maxMembers: 2,
      maxDepth: 4,
      exclude: ["/redfish/v1/UpdateService/**"],
    });
    const files = await filesUnder(limited.out);
    expect(files.filter((f) => /Memory\/DIMM\d\/index.json$/.test(f)).sort()).toEqual([
      "redfish/v1/Systems/1/Memory/DIMM1/index.json",
      "redfish/v1/Systems/1/Memory/DIMM2/index.json",
    ]);
    expect(files).toContain("redfish/v1/Systems/1/Memory/index.json");
    expect(files.some((f) => f.startsWith("redfish/v1/UpdateService"))).toBe(false);

    const shallow = await recordMockup({
      address: server.url,
      credentials: CREDENTIALS,
      out: join(scratch, "shallow"),
      maxDepth: 1,
    });
    const shallowFiles = await filesUnder(shallow.out);
    expect(shallowFiles).toContain("redfish/v1/Systems/index.json");
    expect(shallowFiles).not.toContain("redfish/v1/Systems/1/index.json");

    const only = await recordMockup({
      address: server.url,
      credentials: CREDENTIALS,
      out: join(scratch, "only"),
      include: ["/redfish/v1/Managers/**"],
    });
    expect((await filesUnder(only.out)).filter((f) => f.endsWith("index.json")).sort()).toEqual([
      "redfish/index.json",
      "redfish/v1/Managers/BMC/index.json",
      "redfish/v1/Managers/index.json",
      "redfish/v1/index.json",
    ]);
  });

  it("records failures and goes on", async () => {
    server.addFault({ path: "/redfish/v1/Systems/1/Bios", status: 500 });
    try {
      const result = await recordMockup({
        address: server.url,
        credentials: CREDENTIALS,
        out: join(scratch, "faulty"),
      });
      expect(result.errors.map((e) => e.path)).toEqual(["/redfish/v1/Systems/1/Bios"]);
      expect(await filesUnder(result.out)).not.toContain("redfish/v1/Systems/1/Bios/index.json");
      expect(result.errors[0]?.message).toContain("HTTP 500");
      expect(await filesUnder(result.out)).toContain("redfish/v1/Systems/1/Memory/index.json");
      expect(await readFile(join(result.out, "README"), "utf8")).toContain("/redfish/v1/Systems/1/Bios: ");
    } finally {
      server.clearFaults();
    }
  });

  it("records through a caller's client with its settings, and leaves it open", async () => {
    const client = new RedfishClient({
      address: server.url,
      credentials: CREDENTIALS,
      auth: "session",
      requestTimeoutMs: 300,
      retry: { retries: 0 },
    });
    server.addFault({ path: "/redfish/v1/Systems/1/Memory", latencyMs: 3_000 });
    try {
      const result = await recordMockup({ client, out: join(scratch, "own-client") });
      const slow = result.errors.find((e) => e.path === "/redfish/v1/Systems/1/Memory");
      expect(slow?.message).toMatch(/timed out after 300 ms/);
      expect((await client.get("/redfish/v1/Systems/1")).Id).toBe("1");
      await assertNoCredentials(join(scratch, "own-client"));
    } finally {
      server.clearFaults();
      await client.close();
    }
    await expect(
      recordMockup({ client, address: server.url, insecure: true, out: join(scratch, "clash") }),
    ).rejects.toThrow(/either a client or address, insecure/);
    await expect(recordMockup({ out: join(scratch, "nowhere") })).rejects.toThrow(/an address or a client/);
  });

  it("refuses a non-empty output folder and an unreadable service root", async () => {
    await expect(
      recordMockup({ address: server.url, credentials: CREDENTIALS, out: join(scratch, "tiny") }),
    ).rejects.toBeInstanceOf(RecorderOutputNotEmptyError);
    const denied = recordMockup({
      address: server.url,
      credentials: { ...CREDENTIALS, password: "wrong" },
      out: join(scratch, "denied"),
    });
    await expect(denied).rejects.toBeInstanceOf(RecorderAuthenticationError);
    await expect(denied).rejects.not.toThrow(/wrong/);
    server.addFault({ path: "/redfish/v1", status: 500 });
    try {
      await expect(
        recordMockup({ address: server.url, credentials: CREDENTIALS, out: join(scratch, "down") }),
      ).rejects.toBeInstanceOf(RecorderServiceRootError);
    } finally {
      server.clearFaults();
    }
  });
});

const present = presentSharedVendors("recording a real vendor capture");
const vendor = (["nvidia_dpu", "supermicro"] as const).find((v) => present.includes(v));
if (present.length > 0 && vendor === undefined) {
  console.warn(
    "[testkit] skipping recording a real vendor capture: neither nvidia_dpu nor supermicro is present",
  );
}

describe.skipIf(vendor === undefined)(`recording the ${vendor ?? "shared"} capture`, () => {
  it("serves every recorded resource identically to the original", async () => {
    const server = await MockupServer.start({
      root: sharedMockup(vendor ?? "nvidia_dpu") ?? "",
      auth: "basic",
      credentials: CREDENTIALS,
    });
    try {
      const out = join(scratch, `shared-${vendor}`);
      const result = await recordMockup({
        address: server.url,
        credentials: CREDENTIALS,
        out,
        maxMembers: 50,
        maxLogEntries: 5,
      });
      expect(result.resources).toBeGreaterThan(100);
      await assertNoCredentials(out);
      expect(await assertServedIdentically(server, out)).toBe(result.resources);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
