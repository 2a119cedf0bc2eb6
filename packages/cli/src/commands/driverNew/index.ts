import type { Command } from "commander";
import type { CliIo } from "../../io.js";
import { printOutput } from "../../output/print.js";
import { scaffoldDriver } from "./scaffold.js";

export { type ScaffoldOptions, type ScaffoldResult, scaffoldDriver } from "./scaffold.js";

/** `racksmith driver new <name>`: a driver package to start from (registered under `racksmith driver`). */
export function registerDriverNewCommand(driver: Command, io: CliIo): void {
  driver
    .command("new")
    .description("create a driver package (a RedfishStandard subclass, a mockup, the conformance test)")
    .argument("<name>", "driver name, kebab-case (e.g. acme): the package is racksmith-driver-<name>")
    .option("--dir <dir>", "where to create it (default ./racksmith-driver-<name>); must be empty or absent")
    .option("--scope <scope>", "npm scope for the package name (e.g. @acme → @acme/racksmith-driver-<name>)")
    .option(
      "--vendor <vendor>",
      "the vendor as the BMC's service root names it (default: the name, capitalised)",
    )
    .option("--json", "print { dir, packageName, driver, files } as JSON")
    .action((name: string, flags: { dir?: string; scope?: string; vendor?: string; json?: boolean }) => {
      const result = scaffoldDriver({ name, ...flags, cwd: io.cwd });
      const text = [
        `created ${result.packageName} (driver ${result.driver}) in ${result.dir}: ${result.files.length} files`,
        "next:",
        `  cd ${result.dir}`,
        "  npm install",
        "  npm run build && npm test",
        "  npm run conformance",
      ].join("\n");
      printOutput(io, { kind: "message", text, json: result }, Boolean(flags.json));
    });
}
