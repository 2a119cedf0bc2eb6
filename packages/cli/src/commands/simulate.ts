import { chmod, mkdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { hasErrorCode } from "@racksmith/core";
import type { ExpectedMachineRowResult } from "@racksmith/server";
import {
  expectedMachinesCsv,
  type Fleet,
  type Registration,
  registerFleet,
  startFleet,
} from "@racksmith/simulator";
import type { Command } from "commander";
import { ReportedFailure, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { renderTable } from "../output/table.js";
import { addServerFlags, ServiceClient, ServiceError } from "../serviceClient.js";
import { registerSiteSimulation } from "./simulateSite.js";

const DEFAULT_LISTEN = "127.0.0.1:8700";

interface FleetFlags {
  scenario: string;
  listen: string;
  out?: string;
  tls?: boolean;
  register: boolean;
  server?: string;
  json?: boolean;
}

/** `racksmith simulate` and `racksmith simulate fleet` (the catalogue names and describes `simulate`). */
export function defineSimulateCommand(simulate: Command, io: CliIo): void {
  registerSiteSimulation(simulate, io);
  addServerFlags(
    simulate
      .command("fleet")
      .description("serve a fleet of virtual BMCs from a scenario and register it with the service"),
  )
    .requiredOption("--scenario <file>", "scenario file (YAML or JSON)")
    .option(
      "--listen <host:port>",
      "address of the fleet's one listener (the explorer's BMC proxy)",
      DEFAULT_LISTEN,
    )
    .option(
      "--out <dir>",
      "write expected machines (JSON, CSV), DHCP discoveries, the fleet and factory passwords",
    )
    .option("--tls", "serve HTTPS with a self-signed certificate")
    .option("--no-register", "only serve: register nothing with the service")
    .action(async (flags: FleetFlags) => {
      const listen = listenFlag(flags.listen);
      const fleet = await startFleet({
        scenario: resolve(io.cwd, flags.scenario),
        listen,
        tls: flags.tls === true,
      });
      try {
        const registration = flags.register
          ? await register(fleet, new ServiceClient(flags, io), io)
          : undefined;
        const out = flags.out ? await writeFleetFiles(fleet, resolve(io.cwd, flags.out)) : undefined;
        const summary = summarize(fleet, {
          scenario: flags.scenario,
          registered: registration ?? null,
          out: out ?? null,
        });
        // `simulate` has a --json of its own, which commander fills when both could take it.
        printSummary(io, summary, flags.json === true || simulate.opts().json === true);
        await io.untilStopped();
      } finally {
        await fleet.stop();
      }
    });
}

/** `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (127.0.0.1). */
function listenFlag(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65_535) {
    throw new UsageError(
      `--listen must be HOST:PORT (port 0 picks a free one), got ${JSON.stringify(value)}`,
    );
  }
  return { host: match[1] ?? (match[2] || "127.0.0.1"), port };
}

/** Registers the fleet; a rejected batch is shown row by row (nothing was registered). */
async function register(fleet: Fleet, service: ServiceClient, io: CliIo): Promise<Registration> {
  try {
    return await registerFleet(fleet, service);
  } catch (error) {
    if (error instanceof ServiceError && hasErrorCode(error, "expected_machines_rejected")) {
      const results = (error.details.results ?? []) as ExpectedMachineRowResult[];
      const rejected = results.filter((row) => !row.ok);
      io.stderr.write(
        `racksmith: the service rejected ${rejected.length} expected machines; nothing was registered\n`,
      );
      io.stderr.write(
        renderTable(
          rejected.map((row) => ({ row: row.index, bmcMac: row.bmcMac, reason: row.error?.message ?? "" })),
          ["row", "bmcMac", "reason"],
        ),
      );
      throw new ReportedFailure();
    }
    throw error;
  }
}

/**
 * Files for `racksmith expected-machine import` and `credentials set`; the ones holding passwords are 0600.
 */
async function writeFleetFiles(fleet: Fleet, dir: string): Promise<{ dir: string; files: string[] }> {
  await mkdir(join(dir, "factory-defaults"), { recursive: true });
  const files: Array<[string, string, boolean]> = [
    ["expected-machines.json", `${JSON.stringify(fleet.expectedMachines, null, 2)}\n`, true],
    ["expected-machines.csv", expectedMachinesCsv(fleet.expectedMachines), true],
    ["dhcp-discoveries.json", `${JSON.stringify(fleet.discoveries, null, 2)}\n`, false],
    ["fleet.json", `${JSON.stringify(fleetDocument(fleet), null, 2)}\n`, false],
    ...Object.entries(fleet.factoryDefaults).map(([vendor, credentials]): [string, string, boolean] => [
      join("factory-defaults", `${vendor}.password`),
      `${credentials.password}\n`,
      true,
    ]),
  ];
  for (const [name, content, secret] of files) {
    const path = join(dir, name);
    await writeFile(path, content, secret ? { mode: 0o600 } : {});
    if (secret) await chmod(path, 0o600);
  }
  return { dir, files: files.map(([name]) => name) };
}

function fleetDocument(fleet: Fleet) {
  return { url: fleet.url, bmcs: fleet.bmcs.map((bmc) => bmc.summary()), anomalies: fleet.anomalies };
}

interface FleetSummary {
  url: string;
  scenario: string;
  bmcs: number;
  hosts: number;
  dpus: number;
  models: Array<{ vendor: string; kind: string; model: string; count: number }>;
  anomalies: Array<{
    kind: string;
    bmc: string;
    address: string | null;
    mac: string | null;
    description: string;
  }>;
  factoryDefaults: Array<{ vendor: string; username: string }>;
  registered: Registration | null;
  out: { dir: string; files: string[] } | null;
}

/** What `simulate fleet` prints: one JSON document with `--json`, else the same as tables and lines. */
function summarize(
  fleet: Fleet,
  context: Pick<FleetSummary, "scenario" | "registered" | "out">,
): FleetSummary {
  const models = new Map<string, FleetSummary["models"][number]>();
  for (const bmc of fleet.bmcs) {
    const key = `${bmc.vendor}|${bmc.kind}|${bmc.model}`;
    const entry = models.get(key) ?? { vendor: bmc.vendor, kind: bmc.kind, model: bmc.model, count: 0 };
    entry.count++;
    models.set(key, entry);
  }
  return {
    url: fleet.url,
    ...context,
    bmcs: fleet.bmcs.length,
    hosts: fleet.bmcs.filter((bmc) => bmc.kind === "host").length,
    dpus: fleet.bmcs.filter((bmc) => bmc.kind === "dpu").length,
    models: [...models.values()],
    anomalies: fleet.anomalies.map((anomaly) => {
      const bmc = fleet.bmc(anomaly.bmc);
      return {
        kind: anomaly.kind,
        bmc: anomaly.bmc,
        address: bmc?.address ?? null,
        mac: bmc?.mac ?? null,
        description: anomaly.description,
      };
    }),
    factoryDefaults: Object.entries(fleet.factoryDefaults).map(([vendor, { username }]) => ({
      vendor,
      username,
    })),
  };
}

function printSummary(io: CliIo, summary: FleetSummary, json: boolean): void {
  if (json) {
    io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const { registered, out } = summary;
  const lines = [
    `Fleet of ${summary.bmcs} virtual BMCs from ${basename(summary.scenario)} at ${summary.url}`,
    "",
    renderTable(summary.models, ["vendor", "kind", "model", "count"]).trimEnd(),
    "",
    registered
      ? `Registered with ${registered.server}: ${registered.expectedMachines} expected machines${registered.alreadyExpected ? ` (${registered.alreadyExpected} already expected as they are)` : ""}, ${registered.discoveries} DHCP discoveries.`
      : "Not registered with a service (--no-register).",
    "Point the site explorer at the fleet in racksmith.yaml:",
    "  siteExplorer:",
    `    bmcProxy: ${summary.url}`,
    "",
    "Anomalies:",
    renderTable(summary.anomalies, ["kind", "bmc", "address", "mac", "description"]).trimEnd(),
  ];
  if (summary.factoryDefaults.length) {
    lines.push("", "Vendor factory accounts (DPU logins need them in the credential store):");
    for (const { vendor, username } of summary.factoryDefaults) {
      const file = out ? join(out.dir, "factory-defaults", `${vendor}.password`) : "<password file>";
      lines.push(
        `  racksmith credentials set factory-default --vendor ${vendor} --username ${username} --password-file ${file}`,
      );
    }
  }
  if (out) lines.push("", `Wrote ${out.files.join(", ")} to ${out.dir}`);
  lines.push("Press Ctrl+C to stop.", "");
  io.stdout.write(lines.join("\n"));
}
