import type { HealthReport } from "@racksmith/core/health";
import { isOverrideTemplateName, OVERRIDE_TEMPLATE_NAMES } from "@racksmith/server";
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { readJsonFile } from "../jsonFile.js";
import { renderRecord, renderTable } from "../output/table.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

/** A machine's health as the service's REST API returns it (`/api/v1/machines/{id}/health`). */
export interface MachineHealth {
  machineId: string;
  hostId: string;
  kind: "host" | "dpu";
  report: HealthReport;
  overrides: Array<{ source: string; mode: "merge" | "replace" }>;
}

export interface HealthHistory {
  machineId: string;
  hostId: string;
  entries: Array<{ at: string; hash: string; report: HealthReport }>;
}

interface ServerFlags {
  server?: string;
  json?: boolean;
}

const healthPath = (id: string) => `/api/v1/machines/${encodeURIComponent(id)}/health`;

function alertRows(report: HealthReport) {
  return report.alerts.map((alert) => ({
    id: alert.id,
    target: alert.target,
    classifications: alert.classifications,
    since: alert.inAlertSince,
    message: alert.message.replace(/\n/g, " / "),
  }));
}

/** People: who the machine is, its alerts as a table, the successes counted, the overrides listed. */
function healthText(health: MachineHealth, history: HealthHistory | undefined): string {
  const { report } = health;
  const header = renderRecord({
    machine: health.machineId,
    ...(health.kind === "dpu" ? { host: health.hostId } : {}),
    source: report.source,
    observedAt: report.observedAt,
    alerts: report.alerts.length,
    successes: report.successes.length,
    overrides: health.overrides.map((o) => `${o.source} (${o.mode})`),
  });
  const parts = [
    header,
    `\nALERTS\n${renderTable(alertRows(report), ["id", "target", "classifications", "since", "message"])}`,
  ];
  if (history) {
    const rows = history.entries.map((entry) => ({
      at: entry.at,
      alerts: entry.report.alerts.map((a) => (a.target ? `${a.id}(${a.target})` : a.id)),
      hash: entry.hash.slice(0, 12),
    }));
    parts.push(`\nHISTORY (newest first)\n${renderTable(rows, ["at", "alerts", "hash"])}`);
  }
  return parts.join("");
}

/** `--json`: the report itself (camelCase, as the API has it) plus the overrides, and the history if asked. */
function healthJson(health: MachineHealth, history: HealthHistory | undefined): object {
  return { ...health.report, overrides: health.overrides, ...(history ? { history: history.entries } : {}) };
}

function print(io: CliIo, health: MachineHealth, history: HealthHistory | undefined, json: boolean): void {
  io.stdout.write(
    json ? `${JSON.stringify(healthJson(health, history), null, 2)}\n` : healthText(health, history),
  );
}

/** `racksmith health …`: a machine's aggregate health and its operator overrides, over the REST API. */
export function defineHealthCommand(health: Command, io: CliIo): void {
  addServerFlags(
    health
      .command("show")
      .description("a host's aggregate health (a DPU: its own view) and the machine's overrides")
      .argument("<machine>")
      .option("--history", "also show the health history (newest first)"),
  ).action(async (machine: string, flags: ServerFlags & { history?: boolean }) => {
    const client = new ServiceClient(flags, io);
    const shown = await client.get<MachineHealth>(healthPath(machine));
    const history = flags.history
      ? await client.get<HealthHistory>(`${healthPath(machine)}/history`)
      : undefined;
    print(io, shown, history, Boolean(flags.json));
  });

  const override = health.command("override").description("operator overrides of a machine's health");

  addServerFlags(
    override
      .command("add")
      .description("add (or replace) the override of a source: a report file or a template")
      .argument("<machine>")
      .requiredOption("--source <source>", "the override's key (one override per source)")
      .option("--report <file>", "a HealthReport as a JSON file")
      .option("--template <name>", `a ready-made override: ${OVERRIDE_TEMPLATE_NAMES.join(", ")}`)
      .option("--replace", "replace the host's whole health (default: merge; a template: its own mode)")
      .option("--message <text>", "the template alert's message (a ticket, a reason)")
      .option("--triggered-by <who>", "who applies it"),
  ).action(
    async (
      machine: string,
      flags: ServerFlags & {
        source: string;
        report?: string;
        template?: string;
        replace?: boolean;
        message?: string;
        triggeredBy?: string;
      },
    ) => {
      if (Boolean(flags.report) === Boolean(flags.template)) {
        throw new UsageError("give exactly one of --report and --template");
      }
      if (flags.template && !isOverrideTemplateName(flags.template)) {
        throw new UsageError(
          `unknown --template '${flags.template}' (known: ${OVERRIDE_TEMPLATE_NAMES.join(", ")})`,
        );
      }
      if (flags.message && !flags.template) throw new UsageError("--message goes with --template");
      const body = {
        source: flags.source,
        ...(flags.replace ? { mode: "replace" } : {}),
        ...(flags.report
          ? { report: readJsonFile(flags.report, "--report", io) }
          : { template: flags.template }),
        ...(flags.message ? { message: flags.message } : {}),
        ...(flags.triggeredBy ? { triggeredBy: flags.triggeredBy } : {}),
      };
      const added = await new ServiceClient(flags, io).request<MachineHealth>(
        "POST",
        `${healthPath(machine)}/overrides`,
        body,
      );
      print(io, added, undefined, Boolean(flags.json));
    },
  );

  addServerFlags(
    override
      .command("remove")
      .description("remove the override of a source")
      .argument("<machine>")
      .requiredOption("--source <source>", "the override's source"),
  ).action(async (machine: string, flags: ServerFlags & { source: string }) => {
    const removed = await new ServiceClient(flags, io).request<MachineHealth>(
      "DELETE",
      `${healthPath(machine)}/overrides/${encodeURIComponent(flags.source)}`,
    );
    print(io, removed, undefined, Boolean(flags.json));
  });
}
