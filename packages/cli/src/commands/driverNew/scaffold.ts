import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { BMC_CAPABILITIES, redfishStandardDriver } from "@racksmith/core";
import { UsageError } from "../../errors.js";
import { writeMockup } from "./mockup.js";
import { driverNames } from "./names.js";
import { packageJson, tsconfigJson } from "./packageJson.js";
import { readme } from "./readme.js";
import { changesetConfig, changesetReadme, gitignore } from "./repoFiles.js";
import { conformanceTest, driverSource, pluginIndex } from "./sources.js";
import { scaffoldVersions } from "./versions.js";

export interface ScaffoldOptions {
  name: string;
  /** Where to create the package (default `./racksmith-driver-<name>` under `cwd`); must be empty or absent. */
  dir?: string;
  scope?: string;
  vendor?: string;
  cwd: string;
}

export interface ScaffoldResult {
  dir: string;
  packageName: string;
  driver: string;
  /** Every file written, relative to `dir`, sorted. */
  files: string[];
}

/** The mockup the generated package starts with, relative to its folder. */
const MOCKUP = "mockups/example";

/** Writes a driver package that builds and passes `racksmith driver test` as generated. */
export function scaffoldDriver(options: ScaffoldOptions): ScaffoldResult {
  const names = driverNames(options.name, options);
  const dir = resolve(options.cwd, options.dir ?? names.packageName.replace(/^@[^/]+\//, ""));
  checkTarget(dir);
  const versions = scaffoldVersions();
  const unsupported = BMC_CAPABILITIES.filter((c) => !redfishStandardDriver.capabilities.includes(c));
  const files: Record<string, string> = {
    "package.json": packageJson(names, versions, MOCKUP),
    "tsconfig.json": tsconfigJson(),
    "src/index.ts": pluginIndex(names, versions),
    "src/driver.ts": driverSource(names, unsupported),
    "test/conformance.test.ts": conformanceTest(names, MOCKUP),
    "README.md": readme(names, unsupported, MOCKUP),
    ".changeset/config.json": changesetConfig(),
    ".changeset/README.md": changesetReadme(),
    ".gitignore": gitignore(),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const mockupFiles = writeMockup(names, join(dir, MOCKUP)).map((file) => `${MOCKUP}/${file}`);
  return {
    dir,
    packageName: names.packageName,
    driver: names.name,
    files: [...Object.keys(files), ...mockupFiles].sort(),
  };
}

function checkTarget(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory())
    throw new UsageError(`${dir} exists and is not a directory: choose another --dir`);
  if (readdirSync(dir).length > 0) {
    throw new UsageError(
      `${dir} is not empty: choose another --dir, or empty it first (nothing was written)`,
    );
  }
}
