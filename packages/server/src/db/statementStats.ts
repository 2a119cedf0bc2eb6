import type { LogEvent } from "kysely";
import { Counter, Gauge, type Registry } from "prom-client";

/** Statements the service sent and the time they took, queueing for a connection included. */
export interface StatementStats {
  statements: number;
  seconds: number;
}

/** A connection pool's state: statements queue for a connection once every one is busy. */
export interface ConnectionStats {
  /** The pool's size (`database.poolSize`). */
  max: number;
  open: number;
  idle: number;
  /** Statements and transactions waiting for a connection. */
  waiting: number;
}

/** Counts every statement through Kysely's log hook (one addition per statement, nothing kept). */
export class StatementCounter {
  private statements = 0;
  private ms = 0;

  readonly log = (event: LogEvent): void => {
    this.statements += 1;
    this.ms += event.queryDurationMillis;
  };

  snapshot(): StatementStats {
    return { statements: this.statements, seconds: this.ms / 1000 };
  }
}

/** `racksmith_db_statements_total` and `racksmith_db_statement_seconds_total`, read at each scrape. */
export function registerStatementMetrics(registry: Registry, stats: () => StatementStats): void {
  const registers = [registry];
  new Counter({
    name: "racksmith_db_statements_total",
    help: "Database statements the service sent",
    registers,
    collect() {
      this.reset();
      this.inc(stats().statements);
    },
  });
  new Counter({
    name: "racksmith_db_statement_seconds_total",
    help: "Time the service's database statements took, waiting for a connection included",
    registers,
    collect() {
      this.reset();
      this.inc(stats().seconds);
    },
  });
}

/**
 * `racksmith_db_pool_connections{state}` (busy, idle), `racksmith_db_pool_max` and `racksmith_db_pool_waiting`,
 * read at each scrape: a pool always at its size with statements waiting is where `database.poolSize` helps.
 */
export function registerConnectionMetrics(registry: Registry, stats: () => ConnectionStats): void {
  const registers = [registry];
  new Gauge({
    name: "racksmith_db_pool_connections",
    help: "The database pool's open connections, busy or idle",
    labelNames: ["state"],
    registers,
    collect() {
      const now = stats();
      this.set({ state: "busy" }, now.open - now.idle);
      this.set({ state: "idle" }, now.idle);
    },
  });
  new Gauge({
    name: "racksmith_db_pool_max",
    help: "The database pool's size (database.poolSize)",
    registers,
    collect() {
      this.set(stats().max);
    },
  });
  new Gauge({
    name: "racksmith_db_pool_waiting",
    help: "Statements and transactions waiting for a database connection",
    registers,
    collect() {
      this.set(stats().waiting);
    },
  });
}
