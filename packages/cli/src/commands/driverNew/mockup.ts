import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { EXAMPLE_MOCKUP } from "@racksmith/testkit";
import type { DriverNames } from "./names.js";

/**
 * Copies the testkit's example mockup (a generic DMTF server: one system, manager and chassis) into `target`
 * with the vendor renamed, so the generated driver's detection recognises it. Returns the files written,
 * relative to `target`.
 */
export function writeMockup(names: DriverNames, target: string): string[] {
  cpSync(join(EXAMPLE_MOCKUP, "redfish"), join(target, "redfish"), { recursive: true });
  const vendor = JSON.stringify(names.vendor);
  const files = listFiles(target);
  for (const file of files) {
    if (!file.endsWith(".json")) continue;
    const text = readFileSync(file, "utf8");
    const renamed = text
      .replace(/("(?:Vendor|Manufacturer)"\s*:\s*)"Racksmith"/g, `$1${vendor}`)
      .replace(/("Product"\s*:\s*)"Example BMC"/g, `$1${JSON.stringify(`${names.vendor} BMC`)}`)
      .replace(/"Racksmith Example /g, `"${names.vendor} Example `);
    if (renamed !== text) writeFileSync(file, renamed);
  }
  writeFileSync(join(target, "README.md"), mockupReadme(names));
  return [...files, join(target, "README.md")].map((file) => relative(target, file));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

function mockupReadme(names: DriverNames): string {
  return `# Example mockup

A generic DMTF Redfish service in the Redfish-Mockup-Creator layout (\`redfish/v1/<path>/index.json\`),
copied from \`@racksmith/testkit\`'s example mockup with the vendor renamed to "${names.vendor}". It is not a
capture of real hardware: it only shows the conformance suite running. Record your BMC with
\`racksmith mockup record\` and test against that.
`;
}
