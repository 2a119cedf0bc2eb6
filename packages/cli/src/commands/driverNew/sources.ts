import type { DriverNames } from "./names.js";
import type { ScaffoldVersions } from "./versions.js";

/** `src/index.ts`: the plugin manifest (the package's default export) registering the driver. */
export function pluginIndex(names: DriverNames, versions: ScaffoldVersions): string {
  return `import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { ${names.definitionName} } from "./driver.js";

// Read at runtime, so the manifest names the package and version it ships in (from src and dist alike).
const { name, version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

export default definePlugin({
  name,
  version,
  // The plugin API this package is written for; the loader refuses it under a core with another one.
  apiVersion: ${versions.apiVersion},
  description: "BMC driver for ${names.vendor}",
  register(registry) {
    registry.bmcDriver(${names.definitionName});
  },
});

export { ${names.className}, ${names.definitionName}, ${names.detectName} } from "./driver.js";
`;
}

/** `src/driver.ts`: the driver class over `RedfishStandard`, its detection and its definition. */
export function driverSource(names: DriverNames, unsupported: readonly string[]): string {
  const vendorPattern = names.vendor.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return `import {
  type BmcCapability,
  type BmcDriverDefinition,
  capabilitiesExcept,
  defineBmcDriver,
  type HardwareIdentity,
  RedfishStandard,
} from "@racksmith/core";
import type { ServiceProbe, ServiceRoot } from "@racksmith/core/redfish";

/**
 * The ${names.name} driver. Everything DMTF-standard comes from \`RedfishStandard\`; override only what
 * ${names.vendor}'s BMC does differently, guarded by model or firmware version where needed. Usual candidates:
 *
 * - \`setLockdown\` / \`lockdownStatus\`: there is no standard lockdown resource (OEM settings or actions);
 * - \`power("ACPowercycle")\` and \`clearTpm\`: OEM actions;
 * - \`machineSetup\` / \`machineSetupStatus\`: the vendor's BIOS defaults and boot order;
 * - \`setBootOrderDpuFirst\`, \`bootFirst\`: when boot options do not carry the port's MAC the standard way;
 * - \`setBios\` / \`pendingBios\`: when BIOS changes are staged in a vendor job queue.
 *
 * An operation the hardware cannot do throws \`NotSupportedError\`; declare what works in \`capabilities\`
 * below (the conformance suite fails a declared capability that does not work, and an undeclared one that does).
 * The contract and \`RedfishStandard\`'s helpers: @racksmith/core's README, "Writing a driver".
 */
export class ${names.className} extends RedfishStandard {
  override readonly name: string = "${names.name}";
}

const VENDOR = /^${vendorPattern}\\b/i;

/**
 * How sure it is that this BMC is ${names.vendor}'s (0 = not ours, up to 100). \`RedfishStandard\` scores 1, so any match
 * wins over it; raise the score for what only your BMC shows (its \`Product\`, manager ids in
 * \`probe.managerIds\`, OEM namespaces in \`probe.metadata\`) when other drivers might claim the same vendor.
 */
export function ${names.detectName}(root: ServiceRoot, probe: ServiceProbe): number {
  // \`Vendor\` (Redfish 1.5+); older firmware names the vendor only in an \`Oem\` section's key.
  const named = [root.Vendor?.trim() ?? "", ...probe.oemKeys, ...Object.keys(root.Oem ?? {})];
  if (!named.some((vendor) => VENDOR.test(vendor))) return 0;
  return VENDOR.test(root.Product ?? "") ? 70 : 60;
}

/**
 * Detection's second step, for BMCs whose service root names no vendor (an empty \`Oem\`, DMTF-style): the
 * first system's and manager's make and model, read once with the credentials. A number replaces the score
 * above; undefined keeps it.
 */
function refineByManufacturer(hardware: HardwareIdentity): number | undefined {
  return VENDOR.test(hardware.system?.manufacturer ?? "") ? 70 : undefined;
}

/** What \`RedfishStandard\` cannot do without OEM extensions: implement one, then remove it from this list. */
const UNSUPPORTED: readonly BmcCapability[] = [${unsupported.map((c) => JSON.stringify(c)).join(", ")}];

export const ${names.definitionName}: BmcDriverDefinition = defineBmcDriver({
  name: "${names.name}",
  vendor: "${names.vendor}",
  description: "${names.vendor} servers",
  // The models you tested (informational: detection decides which BMCs the driver takes).
  models: [],
  capabilities: capabilitiesExcept(...UNSUPPORTED),
  detect: ${names.detectName},
  refine: refineByManufacturer,
  create: (client, context) => new ${names.className}(client, context),
});
`;
}

/** `test/conformance.test.ts`: the testkit's conformance suite against the package's mockup. */
export function conformanceTest(names: DriverNames, mockup: string): string {
  return `import { fileURLToPath } from "node:url";
import { BMC_CAPABILITIES, collectRegistrations } from "@racksmith/core";
import {
  conformanceFailures,
  conformanceStatuses,
  expectedConformanceStatuses,
  runConformance,
} from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import plugin, { ${names.definitionName} } from "../src/index.js";

// One run per mockup: add a folder per model you capture (\`racksmith mockup record … --out mockups/<model>\`).
const MOCKUPS = [fileURLToPath(new URL("../${mockup}", import.meta.url))];

describe("the ${names.name} driver", () => {
  it("is what the plugin registers", async () => {
    const registered = await collectRegistrations(plugin);
    expect(registered.bmcDrivers.map((driver) => driver.name)).toEqual(["${names.name}"]);
  });

  it.each(MOCKUPS)(
    "passes the conformance suite on %s",
    async (mockup) => {
      const report = await runConformance({ driver: ${names.definitionName}, mockup });
      expect(conformanceFailures(report)).toEqual([]);
      // Every declared capability passes; every other one answers not_supported.
      const undeclared = BMC_CAPABILITIES.filter((c) => !${names.definitionName}.capabilities.includes(c));
      expect(conformanceStatuses(report)).toEqual(expectedConformanceStatuses(undeclared));
    },
    120_000,
  );
});
`;
}
