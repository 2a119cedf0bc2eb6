import { request as httpRequest } from "node:http";
import {
  BmcConnectionPool,
  RedfishClient,
  RedfishConnectionError,
  RedfishHttpError,
  RedfishMalformedResponseError,
  RedfishTimeoutError,
} from "@racksmith/core/redfish";
import { isJsonObject, type JsonObject, type JsonValue } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalMac, macOfGuid } from "./identity/index.js";
import { forEachString, macCandidates } from "./identity/tokenCandidates.js";
import { ALL_HOST_MODELS, generateScenario } from "./scenario/index.js";
import type { VirtualBmc } from "./server/index.js";
import { type Fleet, startFleet } from "./startFleet.js";

// One fleet for the file: every host model four times, one BlueField each, one host per anomaly.
let fleet: Fleet;
const pool = new BmcConnectionPool();

beforeAll(async () => {
  fleet = await startFleet({
    scenario: generateScenario({
      hosts: 32,
      seed: 5,
      models: ALL_HOST_MODELS,
      anomalies: {
        wrongSerial: 1,
        nicModeDpu: 1,
        missingDpu: 1,
        poweredOff: 1,
        passwordChangeRequired: 1,
        unauthorized: 1,
        unreachable: 1,
        // Far longer than the 300 ms request timeout used against it (the fleet's stop ends the wait).
        slow: { count: 1, latencyMs: 60_000 },
        malformedJson: 1,
      },
    }),
  });
});

afterAll(async () => {
  await pool.closeAll();
  await fleet.stop();
});

function withAnomaly(kind: string): VirtualBmc {
  const anomaly = fleet.anomalies.find((candidate) => candidate.kind === kind);
  const bmc = anomaly && fleet.bmc(anomaly.bmc);
  if (!bmc) throw new Error(`no ${kind} BMC`);
  return bmc;
}

const clean = (kind: "host" | "dpu") =>
  fleet.bmcs.filter(
    (bmc) =>
      bmc.kind === kind &&
      bmc.plan.anomalies.length === 0 &&
      (bmc.plan.host === undefined || fleet.bmc(bmc.plan.host)?.plan.anomalies.length === 0),
  );

function basic(user: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}`;
}

/** A request through the fleet's listener, naming the BMC in `Forwarded` (or in `Host`). */
async function viaFleet(
  address: string,
  path: string,
  options: { auth?: string; method?: string; body?: unknown; useHost?: boolean } = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(fleet.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        headers: {
          ...(options.useHost ? { host: address } : { forwarded: `for=192.0.2.1;host="${address}"` }),
          ...(options.auth ? { authorization: options.auth } : {}),
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

function client(
  bmc: VirtualBmc,
  options: { requestTimeoutMs?: number; credentials?: boolean } = {},
): RedfishClient {
  return new RedfishClient({
    address: `http://${bmc.address}`,
    connectVia: fleet.url,
    pool,
    retry: { retries: 0 },
    ...(options.credentials === false ? {} : { credentials: bmc.credentials }),
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
}

/** Every JSON document a BMC serves, found by following `@odata.id` links from the service root. */
async function crawl(bmc: VirtualBmc): Promise<Map<string, string>> {
  const documents = new Map<string, string>();
  const queue = ["/redfish/v1"];
  const headers = { authorization: basic(bmc.credentials) };
  while (queue.length && documents.size < 1_000) {
    const path = queue.shift() as string;
    if (documents.has(path)) continue;
    const response = await bmc.handle({ method: "GET", path, headers });
    const text = typeof response.body === "string" ? response.body : JSON.stringify(response.body ?? "");
    documents.set(path, text);
    if (response.status !== 200 || !text.startsWith("{")) continue;
    forEachLink(JSON.parse(text) as JsonValue, (link) => {
      if (link.startsWith("/redfish/v1") && !documents.has(link)) queue.push(link.split("#")[0] as string);
    });
  }
  return documents;
}

function forEachLink(value: JsonValue, visit: (link: string) => void): void {
  if (Array.isArray(value)) for (const item of value) forEachLink(item, visit);
  else if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "@odata.id" && typeof child === "string") visit(child);
      else forEachLink(child, visit);
    }
  }
}

function macsIn(documents: Iterable<string>): Set<string> {
  const macs = new Set<string>();
  for (const text of documents) {
    if (!text.startsWith("{")) continue;
    forEachString(JSON.parse(text) as JsonObject, (value, key) => {
      for (const mac of macCandidates(value, key)) macs.add(mac);
    });
  }
  return macs;
}

describe("routing", () => {
  it("routes on Forwarded: host= (what connectVia sends) and on Host, with or without a port", async () => {
    const [bmc] = clean("host");
    if (!bmc?.address) throw new Error("no host");
    const systems = await client(bmc).get("/redfish/v1/Systems");
    expect(systems.Members).toHaveLength(1);
    for (const [address, useHost] of [
      [bmc.address, true],
      [`${bmc.address}:443`, false],
    ] as const) {
      const answer = await viaFleet(address, "/redfish/v1/Systems", {
        auth: basic(bmc.credentials),
        useHost,
      });
      expect(answer.status).toBe(200);
    }
  });

  it("answers 404 with a clear body for an address no virtual BMC has", async () => {
    const before = fleet.stats.unknownBmc;
    const answer = await viaFleet("10.250.0.9", "/redfish/v1");
    expect(answer.status).toBe(404);
    expect(answer.body).toContain(
      `No virtual BMC at 10.250.0.9: this fleet serves ${fleet.bmcs.length} BMCs`,
    );
    expect(answer.body).toContain("Forwarded: host=<address>");
    expect(fleet.stats.unknownBmc).toBe(before + 1);
  });
});

describe("identity", () => {
  it("leaves no original serial, MAC or UUID in any document a virtual BMC serves", async () => {
    const pcr = withAnomaly("passwordChangeRequired");
    let crawled = 0;
    for (const bmc of fleet.bmcs.filter((candidate) => candidate !== pcr)) {
      const documents = await crawl(bmc);
      crawled += documents.size;
      const served = [...documents.values()].join("\n");
      const left = bmc.plan.template.identity.spellings.filter(({ text }) => served.includes(text));
      expect(left.map(({ text }) => `${bmc.id} (${bmc.model}) still serves ${text}`)).toEqual([]);
      expect(served).toContain(bmc.serial);
      expect(macsIn(documents.values()).has(canonicalMac(bmc.mac) ?? "")).toBe(true);
    }
    expect(crawled).toBeGreaterThan(fleet.bmcs.length * 30);
  });

  it("gives a host's BlueField its DPU's serial and its port the DPU's base MAC", async () => {
    for (const dpu of clean("dpu")) {
      const host = fleet.bmc(dpu.plan.host ?? "");
      if (!host) throw new Error(`${dpu.id} has no host`);
      const [system, card, oem, image] = await Promise.all([
        dpu.read("/redfish/v1/Systems/Bluefield"),
        dpu.read("/redfish/v1/Chassis/Card1"),
        dpu.read("/redfish/v1/Systems/Bluefield/Oem/Nvidia"),
        dpu.read("/redfish/v1/UpdateService/FirmwareInventory/DPU_SYS_IMAGE"),
      ]);
      expect(String(system?.SerialNumber).trim()).toBe(dpu.serial);
      expect(String(card?.SerialNumber).trim()).toBe(dpu.serial);
      const baseMac = canonicalMac(String(oem?.BaseMAC ?? "")) ?? macOfGuid(String(image?.Version ?? ""));
      expect(baseMac).toBe(canonicalMac(dpu.plan.dpuMacs[0] ?? ""));

      const hostDocuments = await crawl(host);
      const bluefields = [...hostDocuments.values()].filter(
        (text) => /BlueField/i.test(text) && /SerialNumber/.test(text),
      );
      expect(bluefields.some((text) => text.includes(`"SerialNumber":"${dpu.serial}`))).toBe(true);
      expect(macsIn(hostDocuments.values()).has(baseMac ?? "")).toBe(true);
    }
  });
});

describe("state", () => {
  it("makes a virtual BMC's service on its first request only", async () => {
    const small = await startFleet({
      scenario: generateScenario({ hosts: 3, models: ALL_HOST_MODELS.slice(0, 1) }),
    });
    try {
      expect(small.stats).toMatchObject({ bmcs: 6, created: 0, total: 0 });
      const [host] = small.bmcs;
      expect(host?.created).toBe(false);
      await host?.read("/redfish/v1");
      await host?.read("/redfish/v1/Systems");
      expect(small.stats.created).toBe(1);
      expect(small.bmcs.filter((bmc) => bmc.created)).toEqual([host]);
    } finally {
      await small.stop();
    }
  });

  it("locks every BMC's account after the scenario's lockout threshold of bad logins", async () => {
    const locking = await startFleet({
      scenario: {
        ...generateScenario({ hosts: 1, models: ALL_HOST_MODELS.slice(0, 1) }),
        lockout: { threshold: 2 },
      },
    });
    try {
      for (const bmc of locking.bmcs) {
        const wrong = { username: bmc.credentials.username, password: "not-the-password" };
        const systems = (credentials: typeof wrong) =>
          bmc.handle({
            method: "GET",
            path: "/redfish/v1/Systems",
            headers: { authorization: basic(credentials) },
          });
        expect((await systems(wrong)).status).toBe(401);
        expect((await systems(wrong)).status).toBe(401);
        expect({ bmc: bmc.id, status: (await systems(bmc.credentials)).status }).toEqual({
          bmc: bmc.id,
          status: 401,
        });
        expect((await bmc.service()).state.lockouts).toHaveLength(1);
      }
    } finally {
      await locking.stop();
    }
  });

  it("keeps each BMC's state its own: powering one host off leaves its twin on", async () => {
    const [a, b] = clean("host").filter((bmc) => bmc.model === "poweredge-r750");
    if (!a?.address || !b?.address) throw new Error("two clean R750s needed");
    const reset = await viaFleet(
      a.address,
      "/redfish/v1/Systems/System.Embedded.1/Actions/ComputerSystem.Reset",
      {
        method: "POST",
        auth: basic(a.credentials),
        body: { ResetType: "ForceOff" },
      },
    );
    expect(reset.status).toBeLessThan(300);
    expect((await a.read("/redfish/v1/Systems/System.Embedded.1"))?.PowerState).toBe("Off");
    expect((await b.read("/redfish/v1/Systems/System.Embedded.1"))?.PowerState).toBe("On");
  });

  it("keeps a password change in the BMC's state, and moves a BMC to the address DHCP gave it", async () => {
    const [bmc] = clean("host").filter((candidate) => candidate.model === "sys-821ge-tnhr");
    if (!bmc?.address) throw new Error("no clean SYS-821GE");
    const old = bmc.address;
    fleet.assign("10.200.0.1", bmc.mac.toLowerCase());
    expect(fleet.bmc("10.200.0.1")).toBe(bmc);
    expect((await viaFleet(old, "/redfish/v1")).status).toBe(404);

    const accounts = await bmc.read("/redfish/v1/AccountService/Accounts");
    const members = (accounts?.Members ?? []) as JsonObject[];
    const paths = members.map((member) => String(member["@odata.id"]));
    const root = (
      await Promise.all(paths.map(async (path) => ({ path, account: await bmc.read(path) })))
    ).find(({ account }) => account?.UserName === bmc.credentials.username);
    const changed = await viaFleet("10.200.0.1", root?.path ?? "", {
      method: "PATCH",
      auth: basic(bmc.credentials),
      body: { Password: "Site-Password-1" },
    });
    expect(changed.status).toBeLessThan(300);
    const asSite = basic({ username: bmc.credentials.username, password: "Site-Password-1" });
    expect((await viaFleet("10.200.0.1", "/redfish/v1/Systems", { auth: asSite })).status).toBe(200);
    expect(
      (await viaFleet("10.200.0.1", "/redfish/v1/Systems", { auth: basic(bmc.credentials) })).status,
    ).toBe(401);
  });
});

describe("anomalies", () => {
  it("serves the wrong-serial host's real serial while its expected machine names another", async () => {
    const bmc = withAnomaly("wrongSerial");
    const expected = fleet.expectedMachines.find((machine) => machine.bmcMac === bmc.mac);
    const chassis = await client(bmc).get("/redfish/v1/Chassis");
    const first = String((chassis.Members as JsonObject[])[0]?.["@odata.id"]);
    const served = String((await client(bmc).get(first)).SerialNumber).trim();
    expect(served).toBe(bmc.plan.chassisSerial);
    expect(expected?.chassisSerial).not.toBe(served);
  });

  it("puts the NIC-mode DPU in NIC mode, starts the powered-off host off, leaves the missing DPU out", async () => {
    const host = withAnomaly("nicModeDpu");
    const dpu = fleet.bmc(host.plan.dpus[0] ?? "");
    const modes = [
      (await dpu?.read("/redfish/v1/Systems/Bluefield/Oem/Nvidia"))?.Mode,
      ((await dpu?.read("/redfish/v1/Systems/Bluefield/Bios"))?.Attributes as JsonObject | undefined)
        ?.NicMode,
    ].filter((mode) => mode !== undefined);
    expect(modes.length).toBeGreaterThan(0);
    expect(new Set(modes)).toEqual(new Set(["NicMode"]));

    const off = withAnomaly("poweredOff");
    const system = (await off.read("/redfish/v1/Systems")) as { Members: JsonObject[] };
    expect((await off.read(String(system.Members[0]?.["@odata.id"])))?.PowerState).toBe("Off");

    const missing = withAnomaly("missingDpu");
    expect(missing.plan.dpus).toEqual([]);
    expect(missing.plan.dpuSerials).toHaveLength(1);
    expect(fleet.bmcs.some((bmc) => bmc.serial === missing.plan.dpuSerials[0])).toBe(false);
    expect(fleet.expectedMachines.find((machine) => machine.bmcMac === missing.mac)?.dpuMode).toBe("dpu");
  });

  it("asks for a password change, or refuses the registered factory password", async () => {
    const pcr = withAnomaly("passwordChangeRequired");
    const denied = await client(pcr)
      .get("/redfish/v1/Systems")
      .catch((error: unknown) => error);
    expect(denied).toMatchObject({ code: "password_change_required" });

    const unauthorized = withAnomaly("unauthorized");
    const factory = unauthorized.plan.factoryCredentials;
    expect(
      fleet.expectedMachines.find((machine) => machine.bmcMac === unauthorized.mac)?.factoryPassword,
    ).toBe(factory.password);
    const refused = await viaFleet(unauthorized.address ?? "", "/redfish/v1/Systems", {
      auth: basic(factory),
    });
    expect(refused.status).toBe(401);
    expect((await viaFleet(unauthorized.address ?? "", "/redfish/v1")).status).toBe(200);
  });

  it("drops, delays or garbles every answer of a faulty BMC, and the others are unaffected", async () => {
    const [good] = clean("host");
    if (!good) throw new Error("no clean host");
    const probes = await Promise.all([
      client(withAnomaly("unreachable"))
        .get("/redfish/v1")
        .catch((error: unknown) => error),
      client(withAnomaly("slow"), { requestTimeoutMs: 300 })
        .get("/redfish/v1")
        .catch((error: unknown) => error),
      client(withAnomaly("malformedJson"))
        .get("/redfish/v1")
        .catch((error: unknown) => error),
      client(good).get("/redfish/v1"),
    ]);
    expect(probes[0]).toBeInstanceOf(RedfishConnectionError);
    expect(probes[1]).toBeInstanceOf(RedfishTimeoutError);
    expect(probes[2]).toBeInstanceOf(RedfishMalformedResponseError);
    expect(probes[3]).toMatchObject({ "@odata.id": "/redfish/v1" });
    expect(probes.slice(0, 3).some((error) => error instanceof RedfishHttpError)).toBe(false);
  });
});

describe("listeners", () => {
  it("serves HTTPS, and a port per BMC when asked", async () => {
    const small = await startFleet({
      scenario: generateScenario({ hosts: 1, models: ALL_HOST_MODELS.slice(2, 3) }),
      tls: true,
      portPerBmc: true,
    });
    try {
      expect(small.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(small.certificate).toContain("BEGIN CERTIFICATE");
      for (const bmc of small.bmcs) {
        const direct = new RedfishClient({
          address: bmc.url ?? "",
          credentials: bmc.credentials,
          tls: { ca: small.certificate ?? "" },
          pool,
        });
        const proxied = new RedfishClient({
          address: `https://${bmc.address}`,
          connectVia: small.url,
          credentials: bmc.credentials,
          tls: { insecure: true },
          pool,
        });
        const [a, b] = await Promise.all([
          direct.get("/redfish/v1/Systems"),
          proxied.get("/redfish/v1/Systems"),
        ]);
        expect(a).toEqual(b);
      }
    } finally {
      await small.stop();
    }
  });
});
