import type { LogEvent } from "kysely";
import { Counter, type Registry } from "prom-client";

/** Statements the service sent and the time they took, queueing for a connection included. */
export interface StatementStats {
  statements: number;
  seconds: number;
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
