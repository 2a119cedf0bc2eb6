import type { ExplorationReport } from "@racksmith/core";
import type {
  EndpointDetail,
  EndpointSummary,
  ExploreNowResult,
  MachineDetail,
  MachineView,
  ManagedHostView,
} from "@racksmith/server";
import type { Command } from "commander";
import { ReportedFailure, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { renderRecord } from "../output/table.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";
import {
  type MachineHistoryEntry,
  type MachineLifecycle,
  renderHistoryTable,
  renderLifecycleBlock,
} from "./machineLifecycle.js";
import { readSecretFile } from "./redfish/connect.js";

/** `GET /api/v1/machines/:id`: the detail with its lifecycle block and labelled history. */
type MachineShow = Omit<MachineDetail, "lifecycle" | "history"> & {
  lifecycle?: MachineLifecycle | null;
  history: MachineHistoryEntry[];
};

interface ServerFlags {
  server?: string;
  json?: boolean;
}

const endpointPath = (address: string) => `/api/v1/site-explorer/endpoints/${encodeURIComponent(address)}`;

/** `endpoints --json`: exactly the fields the issue names, `lastError` as `{ code, message }` or null. */
function endpointRow(endpoint: EndpointSummary) {
  return {
    address: endpoint.address,
    vendor: endpoint.vendor,
    driver: endpoint.driver,
    lastError: endpoint.lastError && { code: endpoint.lastError.code, message: endpoint.lastError.message },
    reportVersion: endpoint.reportVersion,
  };
}

/** `machine list --json`: hosts carry `dpus`, DPUs carry `host`. */
function machineRow(machine: MachineView) {
  const base = {
    id: machine.id,
    kind: machine.kind,
    state: machine.state,
    bmcAddress: machine.bmcAddress,
    bmcMac: machine.bmcMac,
    serial: machine.serial,
  };
  return machine.kind === "host"
    ? { ...base, dpus: machine.dpus ?? [] }
    : { ...base, host: machine.host ?? null };
}

/** A report in a few lines: what the BMC is and what it carries. */
function reportLines(report: ExplorationReport): Record<string, unknown> {
  return {
    vendor: report.vendor ?? null,
    driver: `${report.driver.name}${report.driver.pinned ? " (pinned)" : ""}`,
    systems: report.systems.map(
      (s) =>
        `${s.id}: ${[s.manufacturer, s.model].filter(Boolean).join(" ") || "?"} serial ${s.serialNumber ?? "?"}, power ${s.powerState}${
          s.nicMode ? `, ${s.nicMode} mode` : ""
        }${s.baseMac ? `, host MAC ${s.baseMac}` : ""}`,
    ),
    chassis: report.chassis.map((c) => `${c.id}: serial ${c.serialNumber ?? "?"}`),
    diagnostics: report.diagnostics.length,
  };
}

function endpointRecord(endpoint: EndpointDetail): string {
  const { report, lastError, findings, ...summary } = endpoint;
  return renderRecord({
    ...summary,
    lastError: lastError ? `${lastError.code}: ${lastError.message}` : null,
    findings: findings.map((finding) => `${finding.code}: ${finding.message}`),
    ...(report ? reportLines(report) : {}),
  });
}

/** `racksmith site-explorer …`: the explorer's results and exploration on demand, over the service's REST API. */
export function defineSiteExplorerCommand(explorer: Command, io: CliIo): void {
  addServerFlags(explorer.command("endpoints").description("every explored BMC endpoint")).action(
    async (flags: ServerFlags) => {
      const { endpoints } = await new ServiceClient(flags, io).get<{ endpoints: EndpointSummary[] }>(
        "/api/v1/site-explorer/endpoints",
      );
      if (flags.json) return printOutput(io, { kind: "list", rows: endpoints.map(endpointRow) }, true);
      const rows = endpoints.map((e) => ({
        address: e.address,
        vendor: e.vendor,
        driver: e.driver,
        reportVersion: e.reportVersion,
        lastError: e.lastError?.code ?? null,
        lastExploredAt: e.lastExploredAt,
        latencyMs: e.latencyMs,
        findings: e.findings.map((finding) => finding.code),
      }));
      printOutput(io, { kind: "list", rows }, false);
    },
  );

  addServerFlags(
    explorer.command("endpoint").description("one endpoint with its last report").argument("<address>"),
  ).action(async (address: string, flags: ServerFlags) => {
    const endpoint = await new ServiceClient(flags, io).get<EndpointDetail>(endpointPath(address));
    printOutput(
      io,
      { kind: "record", value: endpoint, human: endpointRecord(endpoint) },
      Boolean(flags.json),
    );
  });

  addServerFlags(
    explorer.command("managed-hosts").description("each host BMC's pairing and ingestion verdict"),
  ).action(async (flags: ServerFlags) => {
    const { managedHosts } = await new ServiceClient(flags, io).get<{
      managedHosts: ManagedHostView[];
    }>("/api/v1/site-explorer/managed-hosts");
    const rows = flags.json
      ? managedHosts
      : managedHosts.map((host) => ({
          hostAddress: host.hostAddress,
          status: host.status,
          machineId: host.machineId,
          serial: host.serial,
          dpus: host.dpus.map((dpu) => `${dpu.serial}${dpu.primary ? " (primary)" : ""}`),
          reason: host.reason,
        }));
    printOutput(io, { kind: "list", rows }, Boolean(flags.json));
  });

  addServerFlags(
    explorer
      .command("explore")
      .description("explore one address now (not stored; nothing on the BMC changes); exit 1 if it fails")
      .argument("<address>")
      .option("--mac <mac>", "BMC MAC of an address the inventory does not know (named in the report)")
      .option(
        "--username <user>",
        "your own BMC login (stored credentials go only to addresses the inventory knows)",
      )
      .option(
        "--password-file <file>",
        "with --username: file holding its password (a final newline is dropped)",
      ),
  ).action(
    async (
      address: string,
      flags: ServerFlags & { mac?: string; username?: string; passwordFile?: string },
    ) => {
      if (Boolean(flags.username) !== Boolean(flags.passwordFile)) {
        throw new UsageError("--username and --password-file go together");
      }
      const credentials =
        flags.username && flags.passwordFile
          ? { username: flags.username, password: readSecretFile(io, flags.passwordFile, "--password-file") }
          : undefined;
      const result = await new ServiceClient(flags, io).request<ExploreNowResult>(
        "POST",
        `${endpointPath(address)}/explore`,
        { ...(flags.mac ? { mac: flags.mac } : {}), ...(credentials ? { credentials } : {}) },
      );
      if (flags.json) printOutput(io, { kind: "record", value: result }, true);
      else if (result.report) {
        io.stdout.write(
          renderRecord({ address, latencyMs: result.latencyMs, ...reportLines(result.report) }),
        );
      }
      if (result.error) {
        if (!flags.json)
          io.stderr.write(
            `racksmith: exploring ${address} failed: ${result.error.code}: ${result.error.message}\n`,
          );
        throw new ReportedFailure();
      }
    },
  );

  addServerFlags(
    explorer
      .command("re-explore")
      .description("explore this endpoint first in the next run (asked to start soon)")
      .argument("<address>"),
  ).action(async (address: string, flags: ServerFlags) => {
    await new ServiceClient(flags, io).request("POST", `${endpointPath(address)}/re-explore`);
    printOutput(
      io,
      {
        kind: "message",
        text: `re-exploration of ${address} requested: it goes first in the next run`,
        json: { address, requested: true },
      },
      Boolean(flags.json),
    );
  });
}

/** `racksmith machine …`: the managed hosts and DPUs the explorer ingested, over the service's REST API. */
export function defineMachineCommand(machine: Command, io: CliIo): void {
  addServerFlags(machine.command("list").description("every managed host and DPU")).action(
    async (flags: ServerFlags) => {
      const { machines } = await new ServiceClient(flags, io).get<{ machines: MachineView[] }>(
        "/api/v1/machines",
      );
      printOutput(
        io,
        {
          kind: "list",
          rows: machines.map(machineRow),
          columns: ["id", "kind", "state", "bmcAddress", "bmcMac", "serial", "host", "dpus"],
        },
        Boolean(flags.json),
      );
    },
  );

  addServerFlags(
    machine
      .command("show")
      .description("one machine with its lifecycle (state, time in state, SLA, last outcome, failure)")
      .argument("<id>")
      .option(
        "--history",
        "also the lifecycle history as a table (each state: entered at, how long it lasted against its SLA, what ended it)",
      ),
  ).action(async (id: string, flags: ServerFlags & { history?: boolean }) => {
    const detail = await new ServiceClient(flags, io).get<MachineShow>(
      `/api/v1/machines/${encodeURIComponent(id)}`,
    );
    const { history, lifecycle, ...rest } = detail;
    // Without --history the compact one-line history stays as it always was; with it, the table replaces it.
    const human =
      renderRecord({
        ...rest,
        ...(flags.history
          ? {}
          : { history: history.map((entry) => `${entry.enteredAt} ${entry.state} (v${entry.version})`) }),
      }) +
      renderLifecycleBlock(lifecycle) +
      (flags.history ? renderHistoryTable(history, lifecycle?.timeInStateMs) : "");
    printOutput(io, { kind: "record", value: detail, human }, Boolean(flags.json));
  });

  addServerFlags(
    machine
      .command("force-delete")
      .description(
        "remove a machine whatever its state (needs --yes): it leaves the lifecycle and the inventory",
      )
      .argument("<id>")
      .option("--yes", "confirm: the machine is deleted whatever it is doing"),
  ).action(async (id: string, flags: ServerFlags & { yes?: boolean }) => {
    // No interactive prompt: an explicit flag is what scripts and people both can give.
    if (!flags.yes)
      throw new UsageError(`force-delete removes ${id} whatever its state; add --yes to confirm`);
    const result = await new ServiceClient(flags, io).request<{ hostId: string }>(
      "POST",
      `/api/v1/machines/${encodeURIComponent(id)}/force-delete`,
    );
    printOutput(
      io,
      {
        kind: "message",
        text: `force deletion of ${result.hostId} requested: the lifecycle removes it shortly`,
        json: result,
      },
      Boolean(flags.json),
    );
  });
}
