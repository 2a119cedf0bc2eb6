import type { Logger } from "@racksmith/core";
import type { Insertable, Kysely } from "kysely";
import { type CallOutcome, excerpt, operationKey } from "../../api/index.js";
import type { RacksmithDatabase } from "../../db/index.js";
import type { AuditLogTable } from "../tables.js";

type Db = Kysely<RacksmithDatabase>;

/** One audit row as listed. */
export interface AuditEntry {
  id: string;
  at: Date;
  actor: string;
  role: string;
  tenant: string | null;
  operation: string;
  target: string;
  result: string;
  requestId: string;
}

export interface AuditQuery {
  since?: Date;
  actor?: string;
  /** A substring of the target (`/api/v1/instances/…`, `machine_id=…`). */
  target?: string;
  limit: number;
}

/** Rows written by one INSERT at most (eight parameters each, far below PostgreSQL's 65,535). */
const MAX_ROWS_PER_INSERT = 256;

/**
 * How many of the queued rows the next INSERT takes: the largest power of two not above them, so its text is one
 * of nine and the service's prepared statements (a bounded set of names) are not spent on every row count.
 */
function batchSize(queued: number): number {
  let size = 1;
  while (size * 2 <= Math.min(queued, MAX_ROWS_PER_INSERT)) size *= 2;
  return size;
}

interface QueuedRow {
  row: Insertable<AuditLogTable>;
  written: () => void;
}

/**
 * The audit log: one row per mutating call (who, role, what, target, result, request id, time). It holds
 * the caller's subject and the path or request ids, never a body, header or token. Rows are written in
 * arrival order, one INSERT at a time: a row that comes while one is being written goes into the next ones,
 * with every other row that came meanwhile (a busy site's agents report hundreds of calls a second; each alone
 * was a statement and a pooled connection of its own).
 */
export class AuditLog {
  private readonly queued: QueuedRow[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves once the row is written (or its INSERT failed: that is logged, never thrown — the call it records
   * has happened). A row alone is written at once.
   */
  record(outcome: CallOutcome, at = new Date()): Promise<void> {
    return new Promise<void>((written) => {
      this.queued.push({ row: auditRow(outcome, at), written });
      this.writing ??= this.writeQueued();
    });
  }

  /**
   * Waits for the rows being written: at stop, for a call whose handler outlived the servers' grace. (A list
   * needs no wait: an answered call's row was written before its answer.)
   */
  async flush(): Promise<void> {
    await this.writing;
  }

  private async writeQueued(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued.splice(0, batchSize(this.queued.length));
      // A batch refused as a whole is written again a row at a time: one unwritable row loses only itself.
      if (!(await this.insert(batch, batch.length === 1))) {
        for (const entry of batch) await this.insert([entry], true);
      }
      for (const entry of batch) entry.written();
    }
    this.writing = undefined;
  }

  /** One INSERT of these rows; a failure is logged when `logFailure`, and answered false. */
  private async insert(entries: readonly QueuedRow[], logFailure: boolean): Promise<boolean> {
    try {
      await this.db
        .insertInto("audit_log")
        .values(entries.map((entry) => entry.row))
        .execute();
      return true;
    } catch (error) {
      if (logFailure) {
        this.logger.error(
          {
            err: error instanceof Error ? error.message : String(error),
            operation: entries[0]?.row.operation,
          },
          "audit row not written",
        );
      }
      return false;
    }
  }

  async list(query: AuditQuery): Promise<AuditEntry[]> {
    let select = this.db.selectFrom("audit_log").selectAll().orderBy("id", "desc").limit(query.limit);
    if (query.since) select = select.where("at", ">=", query.since);
    if (query.actor) select = select.where("actor", "=", query.actor);
    if (query.target) select = select.where("target", "like", `%${escapeLike(query.target)}%`);
    const rows = await select.execute();
    return rows.map((row) => ({
      id: String(row.id),
      at: row.at,
      actor: row.actor,
      role: row.role,
      tenant: row.tenant,
      operation: row.operation,
      target: row.target,
      result: row.result,
      requestId: row.request_id,
    }));
  }
}

function auditRow(outcome: CallOutcome, at: Date): Insertable<AuditLogTable> {
  return {
    at,
    actor: outcome.caller?.subject ?? "anonymous",
    role: outcome.caller?.role ?? "none",
    tenant: outcome.caller?.tenant ?? null,
    operation: operationKey(outcome.operation),
    target: excerpt(outcome.target, 300),
    result: outcome.result,
    request_id: outcome.requestId,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
