import type { Logger } from "@racksmith/core";
import type { Kysely } from "kysely";
import { type CallOutcome, excerpt, operationKey } from "../../api/index.js";
import type { RacksmithDatabase } from "../../db/index.js";
import "../tables.js";

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

/**
 * The audit log: one row per mutating call (who, role, what, target, result, request id, time). It holds
 * the caller's subject and the path or request ids, never a body, header or token.
 */
export class AuditLog {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Writes the row; a failure is logged, never thrown (the call it records has happened). */
  record(outcome: CallOutcome, at = new Date()): Promise<void> {
    const write = this.db
      .insertInto("audit_log")
      .values({
        at,
        actor: outcome.caller?.subject ?? "anonymous",
        role: outcome.caller?.role ?? "none",
        tenant: outcome.caller?.tenant ?? null,
        operation: operationKey(outcome.operation),
        target: excerpt(outcome.target, 300),
        result: outcome.result,
        request_id: outcome.requestId,
      })
      .execute()
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.error(
            {
              err: error instanceof Error ? error.message : String(error),
              operation: operationKey(outcome.operation),
            },
            "audit row not written",
          ),
      )
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
    return write;
  }

  /**
   * Waits for the rows being written: at stop, for a call whose handler outlived the servers' grace. (A list
   * needs no wait: an answered call's row was written before its answer.)
   */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
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

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
