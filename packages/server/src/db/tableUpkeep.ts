import type { Logger } from "@racksmith/core";
import type pg from "pg";
import { describeCause } from "./errors.js";

/** One table's counters, as `pg_stat_user_tables` keeps them. */
export interface TableActivity {
  table: string;
  liveRows: number;
  deadRows: number;
  changedSinceAnalyze: number;
}

/** One process of a deployment at a time: a lock per schema (replicas share it). */
const UPKEEP_LOCK = "hashtext('racksmith.tableUpkeep.' || current_schema())";

export interface UpkeepStep {
  table: string;
  /** `vacuum` is VACUUM (ANALYZE): it refreshes the statistics too. */
  action: "vacuum" | "analyze";
}

/**
 * What autovacuum would do with its default thresholds: vacuum a table past 50 dead rows plus a fifth of its
 * live ones, analyze one past 50 changed rows plus a tenth.
 */
export function upkeepDue(tables: readonly TableActivity[]): UpkeepStep[] {
  return tables.flatMap(({ table, liveRows, deadRows, changedSinceAnalyze }): UpkeepStep[] => {
    if (deadRows > 50 + 0.2 * liveRows) return [{ table, action: "vacuum" }];
    if (changedSinceAnalyze > 50 + 0.1 * liveRows) return [{ table, action: "analyze" }];
    return [];
  });
}

export interface UpkeepPass {
  /** False when another process of the same deployment holds the upkeep (it does the pass). */
  ran: boolean;
  steps: UpkeepStep[];
}

export interface TableUpkeepOptions {
  /** Time between passes; 0 never starts one on its own. */
  intervalMs: number;
  description: string;
  logger: Logger;
}

/**
 * The service's own tables kept vacuumed and analyzed on a PostgreSQL server whose autovacuum is off. Without
 * it nothing refreshes their statistics, so a prepared statement keeps the plan it got while its tables were
 * empty — at 10,000 hosts the host snapshot read every machine row (a sequential scan) instead of two through
 * the index — and the queue's indexes grow with every dead row. With autovacuum on it does nothing.
 */
export class TableUpkeep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: TableUpkeepOptions,
  ) {}

  /** Starts the passes when the server's autovacuum is off; resolves to whether it did. */
  async start(): Promise<boolean> {
    if (this.options.intervalMs <= 0) return false;
    const { rows } = await this.pool.query<{ autovacuum: string }>("SHOW autovacuum");
    if (rows[0]?.autovacuum !== "off") return false;
    this.options.logger.warn(
      { database: this.options.description, everyMs: this.options.intervalMs },
      "autovacuum is off on this PostgreSQL server: the service vacuums and analyzes its own tables (database.upkeepIntervalMs)",
    );
    this.schedule();
    return true;
  }

  /**
   * One pass over the tables the service's role owns in its schema; never throws (a failure is logged and the
   * next pass tries again).
   */
  pass(): Promise<UpkeepPass> {
    const pass = this.passOnce().catch((error: unknown) => {
      this.options.logger.warn(
        { database: this.options.description, reason: describeCause(error) },
        "table upkeep failed",
      );
      return { ran: false, steps: [] };
    });
    this.running = pass;
    return pass;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.pass().then(() => this.schedule());
    }, this.options.intervalMs);
    this.timer.unref();
  }

  private async passOnce(): Promise<UpkeepPass> {
    const client = await this.pool.connect();
    try {
      // A second VACUUM of the same table would wait on the first.
      const { rows: locked } = await client.query<{ held: boolean }>(
        `SELECT pg_try_advisory_lock(${UPKEEP_LOCK}) AS held`,
      );
      if (!locked[0]?.held) return { ran: false, steps: [] };
      try {
        const { schema: current, tables } = await ownTables(client);
        const steps = upkeepDue(tables);
        const schema = client.escapeIdentifier(current);
        for (const step of steps) {
          if (this.stopped) break;
          const table = `${schema}.${client.escapeIdentifier(step.table)}`;
          await client.query(step.action === "vacuum" ? `VACUUM (ANALYZE) ${table}` : `ANALYZE ${table}`);
        }
        return { ran: true, steps };
      } finally {
        await client.query(
          "SELECT pg_advisory_unlock(hashtext('racksmith.tableUpkeep.' || current_schema()))",
        );
      }
    } finally {
      client.release();
    }
  }
}

/** The current schema and the activity of its tables that the connected role owns. */
async function ownTables(client: pg.PoolClient): Promise<{ schema: string; tables: TableActivity[] }> {
  const { rows } = await client.query<{
    schema: string;
    table: string | null;
    live: string;
    dead: string;
    changed: string;
  }>(
    `SELECT current_schema() AS schema, s.relname AS table, s.n_live_tup AS live, s.n_dead_tup AS dead,
       s.n_mod_since_analyze AS changed
     FROM (SELECT 1) AS one
     LEFT JOIN (pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid)
       ON s.schemaname = current_schema() AND pg_has_role(c.relowner, 'USAGE')
     ORDER BY s.relname`,
  );
  return {
    schema: rows[0]?.schema ?? "public",
    tables: rows.flatMap((row) =>
      row.table === null
        ? []
        : [
            {
              table: row.table,
              liveRows: Number(row.live),
              deadRows: Number(row.dead),
              changedSinceAnalyze: Number(row.changed),
            },
          ],
    ),
  };
}
