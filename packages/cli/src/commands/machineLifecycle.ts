import type { MachineLifecycleView } from "@racksmith/server";
import { cellText, renderRecord, renderTable } from "../output/table.js";

/**
 * The `lifecycle` block of `GET /api/v1/machines/:id` (null while the host has no lifecycle object), with the
 * failure fields the CLI prints.
 */
export interface MachineLifecycle extends Omit<MachineLifecycleView, "failure"> {
  failure: {
    cause?: string;
    source?: string;
    message?: string;
    failedAt?: string;
    failedIn?: string;
    [key: string]: unknown;
  } | null;
}

export interface MachineHistoryEntry {
  state: string;
  label?: string;
  version: number;
  enteredAt: string;
  /** The SLA of that state (null: none; absent from older services). */
  slaMs?: number | null;
  /** The last outcome recorded in the state when it was left (null while in it; absent from older services). */
  exitOutcome?: MachineLifecycle["outcome"];
}

/** `1h 02m`, `3m 07s`, `12s`: enough to compare with an SLA at a glance. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (days > 0) return `${days}d ${pad(hours)}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(rest)}s`;
  return `${rest}s`;
}

function outcomeText(outcome: NonNullable<MachineLifecycle["outcome"]>): string {
  const detail = outcome.error
    ? `${outcome.error.code}: ${outcome.error.message}`
    : outcome.reason
      ? outcome.reason
      : "";
  return `${outcome.kind}${detail ? ` (${detail})` : ""} at ${outcome.at}`;
}

function failureText(failure: NonNullable<MachineLifecycle["failure"]>): string {
  const where = [failure.failedIn && `in ${failure.failedIn}`, failure.failedAt && `at ${failure.failedAt}`]
    .filter(Boolean)
    .join(" ");
  return `${cellText(failure.cause)} from ${cellText(failure.source)}: ${cellText(failure.message)}${where ? ` (${where})` : ""}`;
}

/** The human block under a machine: where its lifecycle is, for how long, and what last happened. */
export function renderLifecycleBlock(lifecycle: MachineLifecycle | null | undefined): string {
  if (!lifecycle) return "\nlifecycle: none (no lifecycle object yet)\n";
  const { sla } = lifecycle;
  const record: Record<string, unknown> = {
    state: lifecycle.stateLabel,
    timeInState: `${formatDuration(lifecycle.timeInStateMs)} (since ${lifecycle.enteredAt})`,
    sla:
      sla.slaMs === null
        ? "none"
        : `${formatDuration(sla.slaMs)}${sla.aboveSla ? " — ABOVE SLA" : " (within)"}`,
    lastOutcome: lifecycle.outcome ? outcomeText(lifecycle.outcome) : null,
  };
  if (lifecycle.failure) record.failure = failureText(lifecycle.failure);
  return `\nlifecycle:\n${indent(renderRecord(record))}`;
}

/**
 * Newest first, as the service returns it: each state with how long it lasted (until the next one entered;
 * the current one for `currentMs`, the service's time in state, else until now) against its SLA.
 */
export function renderHistoryTable(
  history: readonly MachineHistoryEntry[],
  currentMs?: number,
  now: Date = new Date(),
): string {
  const rows = history.map((entry, index) => {
    const next = history[index - 1];
    const lastedMs = next
      ? Date.parse(next.enteredAt) - Date.parse(entry.enteredAt)
      : (currentMs ?? now.getTime() - Date.parse(entry.enteredAt));
    return {
      version: entry.version,
      enteredAt: entry.enteredAt,
      label: entry.label ?? entry.state,
      lasted: `${formatDuration(lastedMs)}${next ? "" : " (so far)"}`,
      sla: slaText(entry.slaMs, lastedMs),
      endedBy: next ? endedByText(entry.exitOutcome) : "",
    };
  });
  const columns = ["version", "enteredAt", "label", "lasted", "sla", "endedBy"];
  return `\nhistory:\n${indent(renderTable(rows, columns))}`;
}

/**
 * What the state was waiting for (or the error it hit) when it was left: a transition means it moved on at its
 * first run; doNothing, that it sat idle until a request moved it (an allocation, a release).
 */
export function endedByText(outcome: MachineHistoryEntry["exitOutcome"]): string {
  if (!outcome) return "";
  if (outcome.error) return `error ${outcome.error.code}: ${outcome.error.message}`;
  if (outcome.kind === "wait" && outcome.reason) return `after waiting: ${outcome.reason}`;
  if (outcome.kind === "doNothing") return "idle until a request moved it";
  return outcome.kind === "transition" ? "moved on at once" : outcome.kind;
}

function slaText(slaMs: number | null | undefined, lastedMs: number): string {
  if (slaMs === null || slaMs === undefined) return "none";
  return `${formatDuration(slaMs)}${lastedMs > slaMs ? " — ABOVE SLA" : ""}`;
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((line) => (line ? `  ${line}` : line))
    .join("\n");
