import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  type BmcDriverDefinition,
  collectRegistrations,
  redfishStandardDriver,
  selectDriver,
} from "@racksmith/core";
import { probeService, RedfishClient } from "@racksmith/core/redfish";
import dell from "@racksmith/driver-dell";
import hpe from "@racksmith/driver-hpe";
import lenovo from "@racksmith/driver-lenovo";
import nvidiaDpu from "@racksmith/driver-nvidia-dpu";
import supermicro from "@racksmith/driver-supermicro";
import { EXAMPLE_MOCKUP, MockupServer, presentSharedVendors, sharedMockup } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";

// Every vendor driver loaded together, as an operator with all of them in racksmith.yaml would have.
const drivers: BmcDriverDefinition[] = [];
for (const plugin of [dell, hpe, lenovo, supermicro, nvidiaDpu]) {
  drivers.push(...(await collectRegistrations(plugin)).bmcDrivers);
}

const require = createRequire(import.meta.url);
const mockupsOf = (pkg: string): string[] => {
  const root = join(dirname(require.resolve(`${pkg}/package.json`)), "mockups");
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, entry.name));
};

const CASES: Array<[string, string]> = [
  ...mockupsOf("@racksmith/driver-dell").map((m): [string, string] => [m, "dell"]),
  ...mockupsOf("@racksmith/driver-hpe").map((m): [string, string] => [m, "hpe"]),
  ...mockupsOf("@racksmith/driver-lenovo").map((m): [string, string] => [m, "lenovo"]),
  ...mockupsOf("@racksmith/driver-supermicro").map((m): [string, string] => [m, "supermicro"]),
  ...mockupsOf("@racksmith/driver-nvidia-dpu").map((m): [string, string] => [m, "nvidia-dpu"]),
  [EXAMPLE_MOCKUP, "redfish-standard"],
];

const SHARED: Record<string, string> = {
  dell: "dell",
  hpe: "hpe",
  lenovo: "lenovo",
  supermicro: "supermicro",
  nvidia_dpu: "nvidia-dpu",
};
const shared = presentSharedVendors("driver selection on the real captures");

async function selected(root: string): Promise<{ driver: string; scores: Record<string, number> }> {
  const server = await MockupServer.start({ root, auth: "basic" });
  const client = new RedfishClient({
    address: server.url,
    credentials: { username: "root", password: "racksmith" },
  });
  try {
    const selection = selectDriver(drivers, await probeService(client), { fallback: redfishStandardDriver });
    return {
      driver: selection.driver.name,
      scores: Object.fromEntries(selection.candidates.map((c) => [c.name, c.score])),
    };
  } finally {
    await client.close();
    await server.stop();
  }
}

describe("with every driver loaded, each BMC gets its vendor's driver", () => {
  it.each(CASES)("%s → %s", async (root, expected) => {
    const { driver, scores } = await selected(root);
    expect(driver).toBe(expected);
    const others = Object.entries(scores).filter(
      ([name]) => name !== expected && name !== "redfish-standard",
    );
    expect(others.every(([, score]) => score === 0)).toBe(true);
  });

  it.skipIf(shared.length === 0)("on the real captures too", async () => {
    for (const vendor of shared) {
      const { driver, scores } = await selected(sharedMockup(vendor) ?? "");
      expect(driver).toBe(SHARED[vendor]);
      expect(scores["redfish-standard"]).toBeLessThan(scores[driver] ?? 0);
    }
  });
});
