import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { LogEntryInfo } from "@racksmith/core";
import { isNotSupported } from "@racksmith/core";
import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import type { MonitorBmc } from "./readings.js";

/** `event_log_cursors` (migration 0005), typed here so the monitor needs no global schema entry. */
interface EventLogCursorsTable {
  machine_id: string;
  log: string;
  last_entry_id: string;
  updated_at: Date;
}

/** Entries taken per log per run; a larger backlog (a first contact, a long outage) keeps the newest. */
const MAX_ENTRIES = 1_000;

/** The logs collected per BMC: the system event log (SEL/IML/…) and the BMC's own (IEL/Lclog/…). */
const LOGS = {
  system: (bmc: MonitorBmc, sinceId: string | undefined) =>
    bmc.systemEventLog({ ...(sinceId ? { sinceId } : {}), limit: MAX_ENTRIES }),
  bmc: (bmc: MonitorBmc, sinceId: string | undefined) =>
    bmc.bmcEventLog({ ...(sinceId ? { sinceId } : {}), limit: MAX_ENTRIES }),
} as const;

/** One line of `<machineId>.jsonl`. */
export interface EventLogLine {
  machineId: string;
  bmcMac: string;
  /** `system` or `bmc`; `service` is the BMC's log service id (SEL, IEL, Lclog, …). */
  log: keyof typeof LOGS;
  service: string;
  id: string;
  created: string | undefined;
  severity: string | undefined;
  messageId: string | undefined;
  message: string;
  collectedAt: string;
}

/**
 * Appends the entries each log gained since the stored cursor to `<dir>/<machineId>.jsonl`, then moves the
 * cursor. The file is written before the cursor, so a crash in between repeats entries rather than losing
 * them (a shipper sees them twice). A log the BMC does not have is skipped. Returns the entries written.
 */
export async function collectEventLogs(options: {
  db: Kysely<RacksmithDatabase>;
  bmc: MonitorBmc;
  machine: { id: string; bmcMac: string };
  dir: string;
  now: Date;
}): Promise<number> {
  const db = options.db.withTables<{ event_log_cursors: EventLogCursorsTable }>();
  const { machine, now } = options;
  const cursors = await db
    .selectFrom("event_log_cursors")
    .select(["log", "last_entry_id"])
    .where("machine_id", "=", machine.id)
    .execute();
  const since = new Map(cursors.map((c) => [c.log, c.last_entry_id]));
  let written = 0;
  for (const log of Object.keys(LOGS) as Array<keyof typeof LOGS>) {
    let entries: LogEntryInfo[];
    try {
      entries = await LOGS[log](options.bmc, since.get(log));
    } catch (error) {
      if (isNotSupported(error)) continue;
      throw error;
    }
    const last = entries.at(-1);
    if (!last) continue;
    const lines = entries.map((entry) => JSON.stringify(lineOf(machine, log, entry, now)));
    await mkdir(options.dir, { recursive: true });
    await appendFile(join(options.dir, `${machine.id}.jsonl`), `${lines.join("\n")}\n`);
    await db
      .insertInto("event_log_cursors")
      .values({ machine_id: machine.id, log, last_entry_id: last.id, updated_at: now })
      .onConflict((oc) =>
        oc.columns(["machine_id", "log"]).doUpdateSet({ last_entry_id: last.id, updated_at: now }),
      )
      .execute();
    written += entries.length;
  }
  return written;
}

function lineOf(
  machine: { id: string; bmcMac: string },
  log: keyof typeof LOGS,
  entry: LogEntryInfo,
  now: Date,
): EventLogLine {
  return {
    machineId: machine.id,
    bmcMac: machine.bmcMac,
    log,
    service: entry.source,
    id: entry.id,
    created: entry.created,
    severity: entry.severity,
    messageId: entry.messageId,
    message: entry.message,
    collectedAt: now.toISOString(),
  };
}
