import { fileURLToPath } from "node:url";
import { type ConformanceReport, useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bluefieldMockup } from "./support/bmc.js";
import { cli, cliJson } from "./support/cli.js";
import { BUNDLED_MODELS, FIXTURE_CONFIG, mockupDir } from "./support/paths.js";

const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, bluefieldMockup(mockupDir("bluefield-3")));

describe("racksmith driver test (acceptance 4)", () => {
  it.each(BUNDLED_MODELS)("passes on mockups/%s, run from the package folder", async (model) => {
    const run = await cli([
      "driver",
      "test",
      "@racksmith/driver-nvidia-dpu",
      "--mockup",
      `mockups/${model}`,
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as ConformanceReport;
    expect(report).toMatchObject({ driver: "nvidia-dpu", passed: true });
    // On bluefield-3 this needs the package's ./testing behaviors (HostRshim.Set, secure boot at the reboot).
    expect(report.results.find((r) => r.capability === "machineSetup")?.status).toBe("pass");
  });
});

describe("the config names the package", () => {
  it("racksmith drivers list shows the driver, its models and capabilities", async () => {
    const rows = await cliJson<Array<Record<string, unknown>>>([
      "drivers",
      "list",
      "--config",
      FIXTURE_CONFIG,
    ]);
    expect(rows.find((row) => row.name === "nvidia-dpu")).toMatchObject({
      vendor: "NVIDIA",
      package: "@racksmith/driver-nvidia-dpu",
      version: "0.1.0",
      models: ["BlueField-2 SmartNIC Main Card", "BlueField-3 SmartNIC Main Card"],
      capabilities: expect.arrayContaining(["dpu", "machineSetup", "bootOrderDpuFirst"]),
    });
  });

  it("refuses an unknown key in the driver's settings, naming it", async () => {
    const bad = fileURLToPath(new URL("./fixtures/bad-settings.yaml", import.meta.url));
    const run = await cli(["drivers", "list", "--config", bad]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("drivers.nvidia-dpu.biosProfiels");
  });

  it("detects the BlueField through the CLI and applies the configured BIOS profile for its model", async () => {
    const detected = await cliJson<{ driver: string; candidates: Array<{ name: string; score: number }> }>(
      bmc.redfishArgs("detect"),
    );
    expect(detected.driver).toBe("nvidia-dpu");
    const status = await cliJson<{ done: boolean; diffs: Array<{ key: string }> }>(
      bmc.redfishArgs("machine-setup-status"),
    );
    expect(status.diffs.map((d) => d.key)).toContain("L3CachePartitionLevel");
  });
});
