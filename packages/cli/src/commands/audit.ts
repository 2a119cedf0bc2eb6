import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, type ServerConnectionFlags, ServiceClient } from "../serviceClient.js";
import { expiryOf } from "./token.js";

interface AuditEntryJson {
  id: string;
  at: string;
  actor: string;
  role: string;
  tenant: string | null;
  operation: string;
  target: string;
  result: string;
  requestId: string;
}

interface ListFlags extends ServerConnectionFlags {
  json?: boolean;
  since?: string;
  actor?: string;
  target?: string;
  limit?: string;
}

/** `--since`: a duration back from now (`30m`, `12h`, `7d`) or an ISO date-time. */
function sinceOf(text: string, now = new Date()): string {
  if (/^\d{1,6}[mhd]$/.test(text)) {
    const ahead = new Date(expiryOf(text, now)).getTime() - now.getTime();
    return new Date(now.getTime() - ahead).toISOString();
  }
  return expiryOf(text, now);
}

/** `racksmith audit list`: the service's audit log of mutating calls. */
export function defineAuditCommand(command: Command, io: CliIo): void {
  addServerFlags(
    command
      .command("list")
      .description("mutating calls, newest first: who, role, what, target, result, request id")
      .option("--since <when>", "only since a duration ago (30m, 12h, 7d) or an ISO date-time")
      .option("--actor <subject>", "only this caller's")
      .option("--target <text>", "only targets containing this (an id, a path)")
      .option("--limit <n>", "at most this many (default 100)"),
  ).action(async (flags: ListFlags) => {
    const query = new URLSearchParams({
      ...(flags.since ? { since: sinceOf(flags.since) } : {}),
      ...(flags.actor ? { actor: flags.actor } : {}),
      ...(flags.target ? { target: flags.target } : {}),
      ...(flags.limit ? { limit: flags.limit } : {}),
    });
    const suffix = query.size > 0 ? `?${query}` : "";
    const { entries } = await new ServiceClient(flags, io).get<{ entries: AuditEntryJson[] }>(
      `/api/v1/audit${suffix}`,
    );
    printOutput(io, { kind: "list", rows: entries }, Boolean(flags.json));
  });
}
