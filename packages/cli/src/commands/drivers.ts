import { resolve } from "node:path";
import { type BmcDriverDefinition, redfishStandardDriver, VALIDATION_RUN_CONTEXTS } from "@racksmith/core";
import { createPluginHost, loadConfig, loadPlugins, PluginHost } from "@racksmith/server";
import {
  type ConformanceResult,
  type DriverConformanceProfile,
  loadConformanceProfiles,
  runConformance,
} from "@racksmith/testkit";
import type { Command } from "commander";
import { ReportedFailure } from "../errors.js";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { renderTable } from "../output/table.js";
import { registerDriverNewCommand } from "./driverNew/index.js";

const BUILT_IN_NAMES = new Set(["redfish-standard", "@racksmith/core"]);

/**
 * `racksmith drivers list` (the catalogue names and describes `drivers`): every plugin contribution a config
 * loads that acts on BMCs and hosts — BMC drivers, then validation runners, SKU rules, host test rules and health probes — one row each,
 * its `kind` first.
 */
export function defineDriversCommand(drivers: Command, io: CliIo): void {
  drivers
    .command("list")
    .description(
      "list the BMC drivers (and the built-in standard driver), validation runners, SKU and host test rules and health probes the config loads",
    )
    .option("--config <file>", "config file (default racksmith.yaml)")
    .option("--json", "print JSON")
    .action(async (flags: { config?: string; json?: boolean }) => {
      const config = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
      const { host } = await createPluginHost(config);
      const rows: Array<Record<string, unknown>> = [
        ...host.bmcDrivers().map(({ definition, source }) => ({
          kind: "bmc-driver",
          name: definition.name,
          vendor: definition.vendor,
          package: source.plugin,
          version: source.version,
          models: [...(definition.models ?? [])],
          capabilities: [...definition.capabilities],
        })),
        ...host.validationRunners().map(({ definition, source }) => ({
          kind: "validation-runner",
          name: definition.name,
          package: source.plugin,
          version: source.version,
          contexts: [...(definition.contexts ?? VALIDATION_RUN_CONTEXTS)],
        })),
        ...host.skuRules().map(({ definition, source }) => ({
          kind: "sku-rules",
          name: definition.name,
          package: source.plugin,
          version: source.version,
        })),
        ...host.hostTestRules().map(({ definition, source }) => ({
          kind: "host-test-rules",
          name: definition.name,
          package: source.plugin,
          version: source.version,
          builtInTests: definition.builtInTests.length,
        })),
        ...host.healthProbes().map(({ definition, source }) => ({
          kind: "health-probe",
          name: definition.name,
          package: source.plugin,
          version: source.version,
          mode: typeof definition.collect === "function" ? "collecting" : "polled",
          targets: [...definition.targets],
          ids: [...definition.ids],
        })),
      ];
      printOutput(
        io,
        { kind: "list", rows, columns: ["kind", "name", "vendor", "package", "version", "models"] },
        Boolean(flags.json),
      );
    });
}

/** `racksmith driver new | test` (the catalogue names and describes `driver`). */
export function defineDriverCommand(driver: Command, io: CliIo): void {
  registerDriverNewCommand(driver, io);
  driver
    .command("test")
    .description("run the driver conformance suite against a mockup")
    .argument(
      "<package-or-path>",
      "plugin package name or path (or redfish-standard for the built-in driver)",
    )
    .requiredOption("--mockup <dir>", "DMTF mockup directory to serve to the driver")
    .option("--json", "print the report as JSON")
    .action(async (specifier: string, flags: { mockup: string; json?: boolean }) => {
      const host = new PluginHost();
      const { drivers, profiles } = BUILT_IN_NAMES.has(specifier)
        ? { drivers: [redfishStandardDriver], profiles: {} }
        : await pluginDrivers(host, specifier, io.cwd);
      const reports = [];
      for (const driver of drivers) {
        reports.push(
          await runConformance({
            ...profiles[driver.name],
            driver,
            mockup: resolve(io.cwd, flags.mockup),
            onResult: (result) => progress(io, driver.name, result),
          }),
        );
      }
      if (flags.json) {
        printOutput(
          io,
          { kind: "message", text: "", json: reports.length === 1 ? reports[0] : reports },
          true,
        );
      } else {
        for (const report of reports) {
          io.stdout.write(`${report.driver} on ${report.mockup}: ${report.passed ? "PASSED" : "FAILED"}\n`);
          io.stdout.write(
            renderTable(
              report.results.map((r) => ({
                capability: r.capability,
                declared: r.declared ? "yes" : "no",
                status: r.status,
                detail: r.message ?? r.checks.join("; "),
              })),
            ),
          );
        }
      }
      if (reports.some((report) => !report.passed)) throw new ReportedFailure();
    });
}

/** The drivers a plugin registers, and the conformance profiles its `./testing` entry exports. */
async function pluginDrivers(
  host: PluginHost,
  specifier: string,
  cwd: string,
): Promise<{ drivers: BmcDriverDefinition[]; profiles: Readonly<Record<string, DriverConformanceProfile>> }> {
  const [plugin] = await loadPlugins([specifier], { baseDir: cwd, host });
  const drivers = host
    .bmcDrivers()
    .filter((entry) => entry.source.specifier === specifier)
    .map((entry) => entry.definition);
  return { drivers, profiles: await loadConformanceProfiles(plugin?.packageJsonPath) };
}

function progress(io: CliIo, driver: string, result: ConformanceResult): void {
  if (io.stderr.isTTY) io.stderr.write(`\r${driver}: ${result.capability} ${result.status}`.padEnd(60));
}
