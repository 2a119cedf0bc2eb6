import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { silentLogger } from "@racksmith/core";
import {
  createSiteExplorerFeature,
  type EndpointDetail,
  type ExploreNowResult,
  inventoryFeature,
  loadConfig,
  type MachineDetail,
  type ManagedHostView,
  machineIdFor,
  type RunningService,
  startService,
} from "@racksmith/server";
import { EXAMPLE_MOCKUP, type MockupAuthMode, MockupService } from "@racksmith/testkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BmcRouter } from "./support/bmcRouter.js";
import { cli, cliJson } from "./support/runCliForTest.js";

const SITE = "Site-R00t-Pw!";
const HOST_FACTORY = "calvin-factory-1";
const DPU_FACTORY = "0penBmc-factory-2";
const packages = fileURLToPath(new URL("../../", import.meta.url));
const mockup = (pkg: string, name: string) => join(packages, pkg, "mockups", name);

interface VirtualBmc {
  name: string;
  mac: string;
  service: MockupService;
  address?: string;
}

async function virtualBmc(
  name: string,
  mac: string,
  root: string,
  options: { password: string; auth?: MockupAuthMode },
): Promise<VirtualBmc> {
  const service = await MockupService.open(root, {
    auth: options.auth ?? "basic",
    credentials: { username: "root", password: options.password },
  });
  return { name, mac, service };
}

/** A DPU BMC showing the serial its host lists and the host NIC MAC its pf0 has. */
async function dpu(name: string, mac: string, serial: string, hostMac: string, mode: "DpuMode" | "NicMode") {
  const bmc = await virtualBmc(name, mac, mockup("driver-nvidia-dpu", "bluefield-3"), {
    password: DPU_FACTORY,
  });
  await bmc.service.merge("/redfish/v1/Systems/Bluefield", { SerialNumber: serial });
  await bmc.service.merge("/redfish/v1/Chassis/Card1", { SerialNumber: serial });
  await bmc.service.merge("/redfish/v1/Systems/Bluefield/Oem/Nvidia", {
    BaseMAC: hostMac.replace(/:/g, "").toLowerCase(),
    Mode: mode,
  });
  return bmc;
}

async function systemSerial(service: MockupService): Promise<string> {
  const systems = await service.read("/redfish/v1/Systems");
  const members = (systems?.Members ?? []) as Array<{ "@odata.id": string }>;
  const first = members[0]?.["@odata.id"] ?? "";
  return String((await service.read(first))?.SerialNumber ?? "").trim();
}

describe("racksmith site-explorer and machine (a service exploring mockup BMCs of every vendor)", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-cli-explorer-"));
  let router: BmcRouter;
  let service: RunningService;
  let server: string[];
  const bmcs: Record<string, VirtualBmc> = {};
  const run = (...argv: string[]) => cli([...argv, ...server], dir);
  const json = <T>(...argv: string[]) => cliJson<T>([...argv, ...server], dir);

  beforeAll(async () => {
    router = await BmcRouter.start();
    const hosts = [
      await virtualBmc("dell", "02:00:00:00:01:01", mockup("driver-dell", "poweredge-r750"), {
        password: HOST_FACTORY,
      }),
      await virtualBmc("hpe", "02:00:00:00:01:02", mockup("driver-hpe", "proliant-dl385-gen10-plus-v2"), {
        password: HOST_FACTORY,
      }),
      await virtualBmc("lenovo", "02:00:00:00:01:03", mockup("driver-lenovo", "thinksystem-sr675-v3"), {
        password: HOST_FACTORY,
      }),
      await virtualBmc("example", "02:00:00:00:01:04", EXAMPLE_MOCKUP, {
        password: HOST_FACTORY,
        auth: "password-change-required",
      }),
      await virtualBmc("supermicro", "02:00:00:00:01:05", mockup("driver-supermicro", "sys-121h-tnr"), {
        password: HOST_FACTORY,
      }),
    ];
    const dpus = [
      await dpu("dell-dpu", "02:00:00:00:02:01", "MT2301X00101", "B8:3F:D2:AA:10:01", "DpuMode"),
      await dpu("hpe-dpu", "02:00:00:00:02:02", "RSBF3G10001", "02:A5:10:30:00:01", "DpuMode"),
      await dpu("lenovo-dpu", "02:00:00:00:02:03", "MT2433X00202", "02:1A:6B:00:75:11", "NicMode"),
    ];
    for (const bmc of [...hosts, ...dpus]) bmcs[bmc.name] = bmc;

    const expected = await Promise.all(
      hosts.map(async (host) => ({
        bmcMac: host.mac,
        chassisSerial: host.name === "supermicro" ? "WRONG-SERIAL" : await systemSerial(host.service),
        factoryUsername: "root",
        factoryPassword: HOST_FACTORY,
      })),
    );
    writeFileSync(join(dir, "machines.json"), JSON.stringify(expected));
    writeFileSync(join(dir, "site-password"), `${SITE}\n`);
    writeFileSync(join(dir, "dpu-password"), `${DPU_FACTORY}\n`);
    const plugins = [
      "driver-dell",
      "driver-hpe",
      "driver-lenovo",
      "driver-supermicro",
      "driver-nvidia-dpu",
    ].map((pkg) => join(packages, pkg));
    writeFileSync(
      join(dir, "racksmith.yaml"),
      [
        "plugins:",
        ...plugins.map((plugin) => `  - ${JSON.stringify(plugin)}`),
        "siteExplorer:",
        "  intervalMs: 300",
        `  bmcProxy: ${router.listen}`,
        "  bmc:",
        "    scheme: http",
        "    requestTimeoutMs: 10000",
      ].join("\n"),
    );
    const local = async (...argv: string[]) => {
      const result = await cli([...argv, "--config", "racksmith.yaml"], dir);
      if (result.code !== 0) throw new Error(`racksmith ${argv.join(" ")}: ${result.stderr}`);
    };
    await local("credentials", "init");
    await local(
      "credentials",
      "set",
      "site-bmc-root",
      "--username",
      "root",
      "--password-file",
      "site-password",
    );
    await local(
      "credentials",
      "set",
      "factory-default",
      "--vendor",
      "nvidia",
      "--username",
      "root",
      "--password-file",
      "dpu-password",
    );

    service = await startService({
      config: loadConfig({ file: join(dir, "racksmith.yaml") }),
      overrides: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
      inMemoryDatabase: true,
      logger: silentLogger,
      // The explorer alone: ingested hosts rest in `created` (the lifecycle has tests of its own).
      features: [inventoryFeature, createSiteExplorerFeature({ standaloneLifecycle: true })],
    });
    server = ["--server", `http://127.0.0.1:${service.http.port}`, "--token", service.adminToken ?? ""];
    expect((await run("expected-machine", "import", "machines.json")).code).toBe(0);
    for (const bmc of Object.values(bmcs)) {
      const lease = await json<{ address: string }>("dhcp", "discover", "--mac", bmc.mac);
      bmc.address = lease.address;
      router.bmcs.set(lease.address, bmc.service);
    }
    await waitUntilSettled();
  }, 240_000);

  afterAll(async () => {
    await service?.stop();
    await router?.stop();
  });

  /** Until every BMC was explored and each host reached its final verdict (the run repeats every 300 ms). */
  async function waitUntilSettled(): Promise<void> {
    const final: Record<string, string> = {
      dell: "ingested",
      hpe: "ingested",
      lenovo: "rejected",
      supermicro: "rejected",
      example: "waiting",
    };
    // The timeout only bounds a hang: a busy machine explores more slowly, never differently.
    await vi.waitFor(
      async () => {
        const [hosts, endpoints] = await Promise.all([
          json<ManagedHostView[]>("site-explorer", "managed-hosts"),
          json<Array<{ reportVersion: number }>>("site-explorer", "endpoints"),
        ]);
        const statusOf = new Map(hosts.map((host) => [host.hostAddress, host.status]));
        const settled =
          endpoints.length === Object.keys(bmcs).length &&
          endpoints.every((endpoint) => endpoint.reportVersion >= 1) &&
          Object.entries(final).every(([name, status]) => statusOf.get(address(name)) === status);
        if (!settled) throw new Error(`verdicts did not settle: ${JSON.stringify(hosts, null, 2)}`);
      },
      { timeout: 150_000, interval: 100 },
    );
  }

  const address = (name: string) => bmcs[name]?.address ?? "";

  it("ingests every good host with its DPU and primary DPU, and reports the others with the reason", async () => {
    const verdicts = new Map(
      (await json<ManagedHostView[]>("site-explorer", "managed-hosts")).map((h) => [h.hostAddress, h]),
    );
    const dellId = machineIdFor("host", await systemSerial(bmcs.dell?.service as MockupService));
    expect(verdicts.get(address("dell"))).toMatchObject({
      status: "ingested",
      machineId: dellId,
      primaryDpu: machineIdFor("dpu", "MT2301X00101"),
      dpus: [
        expect.objectContaining({
          serial: "MT2301X00101",
          hostFacingMac: "B8:3F:D2:AA:10:01",
          primary: true,
        }),
      ],
    });
    expect(verdicts.get(address("hpe"))).toMatchObject({ status: "ingested" });
    expect(verdicts.get(address("lenovo"))).toMatchObject({ status: "rejected", code: "dpu_in_nic_mode" });
    expect(verdicts.get(address("example"))).toMatchObject({
      status: "waiting",
      code: "dpu_not_explored",
      reason: expect.stringContaining("MT2333X00001"),
    });
    expect(verdicts.get(address("supermicro"))).toMatchObject({
      status: "rejected",
      code: "serial_number_mismatch",
      reason: expect.stringContaining("WRONG-SERIAL"),
    });

    const machines = await json<Array<Record<string, unknown>>>("machine", "list");
    expect(machines).toHaveLength(4);
    const dell = machines.find((m) => m.id === dellId);
    expect(dell).toEqual({
      id: dellId,
      kind: "host",
      state: "created",
      bmcAddress: address("dell"),
      bmcMac: "02:00:00:00:01:01",
      serial: expect.any(String),
      dpus: [machineIdFor("dpu", "MT2301X00101")],
    });
    expect(machines.find((m) => m.id === machineIdFor("dpu", "MT2301X00101"))).toEqual({
      id: machineIdFor("dpu", "MT2301X00101"),
      kind: "dpu",
      state: "created",
      bmcAddress: address("dell-dpu"),
      bmcMac: "02:00:00:00:02:01",
      serial: "MT2301X00101",
      host: dellId,
    });
    const table = await run("machine", "list");
    expect(table.stdout).toMatch(/^ID\s+KIND\s+STATE\s+BMC ADDRESS\s+BMC MAC\s+SERIAL\s+HOST\s+DPUS/);
    expect(table.stdout).toContain(dellId);

    const shown = await json<MachineDetail>("machine", "show", dellId);
    expect(shown).toMatchObject({
      id: dellId,
      primaryDpu: machineIdFor("dpu", "MT2301X00101"),
      history: [{ state: "created" }],
    });
    expect((await run("machine", "show", dellId)).stdout).toMatch(/history\s+\S+ created \(v1\)/);

    const mismatch = await json<EndpointDetail>("site-explorer", "endpoint", address("supermicro"));
    expect(mismatch.findings).toEqual([expect.objectContaining({ code: "SerialNumberMismatch" })]);
  });

  it("rotated every BMC's factory password to the site password, PasswordChangeRequired included", async () => {
    for (const bmc of Object.values(bmcs)) {
      expect({ bmc: bmc.name, password: bmc.service.state.accounts.get("root") }).toEqual({
        bmc: bmc.name,
        password: SITE,
      });
    }
    expect(bmcs.example?.service.state.passwordChangeRequired.size).toBe(0);
    const keys = await cliJson<Array<{ kind: string; mac: string | null }>>(
      ["credentials", "list", "--config", "racksmith.yaml"],
      dir,
    );
    expect(
      keys
        .filter((key) => key.kind === "bmc")
        .map((key) => key.mac)
        .sort(),
    ).toEqual(
      Object.values(bmcs)
        .map((bmc) => bmc.mac)
        .sort(),
    );
    expect(keys.some((key) => key.kind === "bmc-rotation")).toBe(false);
  });

  it("lists endpoints with exactly address, vendor, driver, lastError and reportVersion", async () => {
    const endpoints = await json<Array<Record<string, unknown>>>("site-explorer", "endpoints");
    expect(endpoints).toHaveLength(8);
    for (const endpoint of endpoints) {
      expect(Object.keys(endpoint).sort()).toEqual([
        "address",
        "driver",
        "lastError",
        "reportVersion",
        "vendor",
      ]);
      expect(endpoint.lastError).toBeNull();
      expect(endpoint.reportVersion).toBeGreaterThanOrEqual(1);
    }
    const driverOf = (name: string) => endpoints.find((e) => e.address === address(name))?.driver;
    expect(["dell", "hpe", "lenovo", "supermicro", "example", "dell-dpu"].map(driverOf)).toEqual([
      "dell",
      "hpe",
      "lenovo",
      "supermicro",
      "redfish-standard",
      "nvidia-dpu",
    ]);
    const table = await run("site-explorer", "endpoints");
    expect(table.stdout).toMatch(/^ADDRESS\s+VENDOR\s+DRIVER\s+REPORT VERSION\s+LAST ERROR/);
  });

  it("shows one endpoint, explores one now and re-explores one", async () => {
    const detail = await json<EndpointDetail>("site-explorer", "endpoint", address("hpe-dpu"));
    expect(detail.report?.systems[0]).toMatchObject({
      serialNumber: "RSBF3G10001",
      nicMode: "dpu",
      baseMac: "02:A5:10:30:00:01",
    });
    const human = await run("site-explorer", "endpoint", address("hpe-dpu"));
    expect(human.stdout).toMatch(/driver\s+nvidia-dpu/);
    expect(human.stdout).toContain("serial RSBF3G10001");

    const now = await json<ExploreNowResult>("site-explorer", "explore", address("dell"));
    expect(now).toMatchObject({ address: address("dell"), error: null });
    expect(now.report?.driver.name).toBe("dell");
    const stray = await run("site-explorer", "explore", "10.200.0.9");
    expect(stray.code).toBe(1);
    expect(stray.stderr).toMatch(/exploring 10\.200\.0\.9 failed: (redfish_error|missing_credentials)/);

    const before = (await json<EndpointDetail>("site-explorer", "endpoint", address("hpe"))).reportVersion;
    expect(await json("site-explorer", "re-explore", address("hpe"))).toEqual({
      address: address("hpe"),
      requested: true,
    });
    await vi.waitFor(
      async () =>
        expect(
          (await json<EndpointDetail>("site-explorer", "endpoint", address("hpe"))).reportVersion,
          "the re-exploration did not happen",
        ).toBeGreaterThan(before),
      { timeout: 60_000, interval: 50 },
    );
  }, 90_000);

  it("fails clearly: unknown endpoint or machine (exit 1 with the code), missing argument (exit 2)", async () => {
    const unknown = await run("site-explorer", "endpoint", "10.9.9.9");
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining("[endpoint_not_found]") });
    expect((await run("site-explorer", "re-explore", "10.9.9.9")).code).toBe(1);
    expect(await run("machine", "show", "host-nope")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("[machine_not_found]"),
    });
    const usage = await run("machine", "show");
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim().split("\n")[0]).toMatch(/missing required argument 'id'/);
    const down = await cli(["machine", "list", "--server", "http://127.0.0.1:9"], dir);
    expect(down).toMatchObject({ code: 1, stderr: expect.stringContaining("[service_unreachable]") });
  });

  it("never prints a password", async () => {
    const outputs = await Promise.all([
      run("site-explorer", "endpoints", "--json"),
      run("site-explorer", "endpoint", address("example"), "--json"),
      run("site-explorer", "managed-hosts", "--json"),
      run("site-explorer", "explore", address("lenovo"), "--json"),
      run("machine", "list", "--json"),
    ]);
    for (const output of outputs) {
      for (const secret of [SITE, HOST_FACTORY, DPU_FACTORY])
        expect(output.stdout + output.stderr).not.toContain(secret);
    }
  });
});
