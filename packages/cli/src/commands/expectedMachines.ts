import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { hasErrorCode } from "@racksmith/core";
import {
  type ApplyExpectedMachinesResult,
  type DhcpLease,
  DPU_MODES,
  type ExpectedMachine,
  type ExpectedMachineInput,
  type ExpectedMachineRowResult,
  ExpectedMachinesFileError,
  type ExpectedMachinesMode,
  parseExpectedMachinesFile,
} from "@racksmith/server";
import { type Command, Option } from "commander";
import { ReportedFailure, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { renderTable } from "../output/table.js";
import { addServerFlags, ServiceClient, ServiceError } from "../serviceClient.js";
import { readSecretFile } from "./redfish/connect.js";

interface ServerFlags {
  server?: string;
  json?: boolean;
}

interface AddFlags extends ServerFlags {
  bmcMac: string;
  chassisSerial: string;
  bmcAddress?: string;
  factoryUsername?: string;
  factoryPasswordFile?: string;
  fallbackDpuSerial: string[];
  dpuMode?: ExpectedMachineInput["dpuMode"];
  driver?: string;
  label: string[];
  sku?: string;
}

const LIST_COLUMNS = [
  "bmcMac",
  "chassisSerial",
  "bmcAddress",
  "dpuMode",
  "driver",
  "hasFactoryPassword",
  "labels",
];

const collect = (value: string, previous: string[]): string[] => [...previous, value];
const path = (mac: string) => `/api/v1/expected-machines/${encodeURIComponent(mac)}`;

function labelsFrom(pairs: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals < 1) throw new UsageError(`--label must be key=value, got ${JSON.stringify(pair)}`);
    labels[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return labels;
}

/** The machine `add` describes; the factory password is read from a file, never taken from a flag. */
function inputFrom(io: CliIo, flags: AddFlags): ExpectedMachineInput {
  if (flags.factoryPasswordFile !== undefined && flags.factoryUsername === undefined) {
    throw new UsageError("--factory-password-file needs --factory-username");
  }
  const input: ExpectedMachineInput = { bmcMac: flags.bmcMac, chassisSerial: flags.chassisSerial };
  if (flags.bmcAddress !== undefined) input.bmcAddress = flags.bmcAddress;
  if (flags.factoryUsername !== undefined) input.factoryUsername = flags.factoryUsername;
  if (flags.factoryPasswordFile !== undefined) {
    input.factoryPassword = readSecretFile(io, flags.factoryPasswordFile, "--factory-password-file");
  }
  if (flags.fallbackDpuSerial.length) input.fallbackDpuSerials = flags.fallbackDpuSerial;
  if (flags.dpuMode !== undefined) input.dpuMode = flags.dpuMode;
  if (flags.driver !== undefined) input.driver = flags.driver;
  if (flags.label.length) input.labels = labelsFrom(flags.label);
  if (flags.sku !== undefined) input.skuId = flags.sku;
  return input;
}

async function readMachinesFile(io: CliIo, file: string, mode: ExpectedMachinesMode) {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const parsed = parseExpectedMachinesFile(text, file);
  if (parsed.machines.length === 0) {
    const why = mode === "replace-all" ? "; replace-all would delete every expected machine" : "";
    throw new ExpectedMachinesFileError(file, `holds no expected machines${why}`);
  }
  return parsed;
}

/** One line per row: where it is in the file, its MAC, and what happened to it. */
function resultRows(
  results: readonly ExpectedMachineRowResult[],
  lines: readonly number[] | undefined,
  applied: boolean,
) {
  return results.map((result) => ({
    row: result.index + 1,
    ...(lines ? { line: lines[result.index] ?? null } : {}),
    bmcMac: result.bmcMac || null,
    result: result.ok ? (applied ? "applied" : "not applied") : "rejected",
    reason: result.error ? `${result.error.code}: ${result.error.message}` : null,
  }));
}

/** `import` and `replace-all`: the file's machines in one request; per-row results; exit 1 if any was rejected. */
async function applyFile(
  io: CliIo,
  file: string,
  mode: ExpectedMachinesMode,
  flags: ServerFlags & { acceptPartial?: boolean },
): Promise<void> {
  const { machines, lines } = await readMachinesFile(io, file, mode);
  const client = new ServiceClient(flags, io);
  let outcome: ApplyExpectedMachinesResult;
  let refused = false;
  try {
    outcome = await client.request<ApplyExpectedMachinesResult>("POST", "/api/v1/expected-machines/batch", {
      machines,
      mode,
      acceptPartial: flags.acceptPartial === true,
    });
  } catch (error) {
    if (!(error instanceof ServiceError) || !hasErrorCode(error, "expected_machines_rejected")) throw error;
    // The whole request was refused: report every row the same way as an applied one.
    outcome = { applied: 0, deleted: 0, results: error.details.results as ExpectedMachineRowResult[] };
    refused = true;
  }
  const rejected = outcome.results.filter((result) => !result.ok).length;
  if (flags.json) printOutput(io, { kind: "message", text: "", json: outcome }, true);
  else {
    io.stdout.write(renderTable(resultRows(outcome.results, lines, !refused)));
    const summary = refused
      ? [`nothing applied: ${rejected} of ${outcome.results.length} rejected`]
      : [
          `applied ${outcome.applied}`,
          ...(rejected ? [`rejected ${rejected}`] : []),
          ...(mode === "replace-all" ? [`deleted ${outcome.deleted}`] : []),
        ];
    io.stdout.write(`${summary.join(", ")}\n`);
  }
  if (rejected) throw new ReportedFailure();
}

/** `racksmith expected-machine …`: the service's expected machines, over its REST API. */
export function defineExpectedMachineCommand(machines: Command, io: CliIo): void {
  addServerFlags(
    machines
      .command("add")
      .description("add one expected machine")
      .requiredOption("--bmc-mac <mac>", "BMC MAC address")
      .requiredOption("--chassis-serial <serial>", "chassis serial the BMC must report")
      .option("--bmc-address <host[:port]>", "static BMC address (when DHCP does not hand one out)")
      .option("--factory-username <user>", "factory BMC user name")
      .option("--factory-password-file <file>", "file holding the factory BMC password")
      .option("--fallback-dpu-serial <serial>", "DPU serial to pair with (repeatable)", collect, [])
      .addOption(
        new Option("--dpu-mode <mode>", "how the host's BlueFields are used (default dpu)").choices(
          DPU_MODES,
        ),
      )
      .option("--driver <name>", "driver to use instead of detection")
      .option("--label <key=value>", "label (repeatable)", collect, [])
      .option("--sku <id>", "SKU id"),
  ).action(async (flags: AddFlags) => {
    const machine = await new ServiceClient(flags, io).request<ExpectedMachine>(
      "POST",
      "/api/v1/expected-machines",
      inputFrom(io, flags),
    );
    printOutput(io, { kind: "record", value: machine }, Boolean(flags.json));
  });

  addServerFlags(machines.command("show").description("one expected machine").argument("<bmc-mac>")).action(
    async (mac: string, flags: ServerFlags) => {
      const machine = await new ServiceClient(flags, io).get<ExpectedMachine>(path(mac));
      printOutput(io, { kind: "record", value: machine }, Boolean(flags.json));
    },
  );

  addServerFlags(machines.command("list").description("every expected machine")).action(
    async (flags: ServerFlags) => {
      const { machines: rows } = await new ServiceClient(flags, io).get<{
        machines: ExpectedMachine[];
      }>("/api/v1/expected-machines");
      printOutput(io, { kind: "list", rows, columns: LIST_COLUMNS }, Boolean(flags.json));
    },
  );

  addServerFlags(
    machines
      .command("delete")
      .description("delete an expected machine and its factory password")
      .argument("<bmc-mac>"),
  ).action(async (mac: string, flags: ServerFlags) => {
    await new ServiceClient(flags, io).request("DELETE", path(mac));
    printOutput(
      io,
      { kind: "message", text: `deleted expected machine ${mac}`, json: { deleted: mac } },
      Boolean(flags.json),
    );
  });

  for (const [name, mode, description] of [
    ["import", "add", "add the machines of a JSON or CSV file (all or nothing unless --accept-partial)"],
    ["replace-all", "replace-all", "make the expected machines exactly those of a JSON or CSV file"],
  ] as const) {
    addServerFlags(
      machines
        .command(name)
        .description(description)
        .argument("<file>", "JSON array (or { machines: [...] }) or CSV with a header line")
        .option("--accept-partial", "apply the good rows even when some are rejected"),
    ).action((file: string, flags: ServerFlags & { acceptPartial?: boolean }) =>
      applyFile(io, file, mode, flags),
    );
  }
}

/** `racksmith dhcp …`: the service's DHCP discoveries of BMCs, over its REST API. */
export function defineDhcpCommand(dhcp: Command, io: CliIo): void {
  addServerFlags(
    dhcp
      .command("discover")
      .description("record a DHCP discovery and print the address to hand out")
      .requiredOption("--mac <mac>", "the requesting MAC")
      .option("--vendor-class <text>", "DHCP vendor class")
      .option("--relay <ip>", "relay agent address"),
  ).action(async (flags: ServerFlags & { mac: string; vendorClass?: string; relay?: string }) => {
    const lease = await new ServiceClient(flags, io).request<DhcpLease>("POST", "/api/v1/dhcp/discover", {
      mac: flags.mac,
      ...(flags.vendorClass !== undefined ? { vendorClass: flags.vendorClass } : {}),
      ...(flags.relay !== undefined ? { relay: flags.relay } : {}),
    });
    printOutput(io, { kind: "record", value: lease }, Boolean(flags.json));
  });
  addServerFlags(dhcp.command("leases").description("every DHCP lease")).action(
    async (flags: ServerFlags) => {
      const { leases } = await new ServiceClient(flags, io).get<{ leases: DhcpLease[] }>(
        "/api/v1/dhcp/leases",
      );
      printOutput(io, { kind: "list", rows: leases }, Boolean(flags.json));
    },
  );
}
