import { Counter, Gauge, Histogram, type Registry } from "prom-client";

const PREFIX = "racksmith_site_explorer_";

/** The explorer's Prometheus metrics (prefix `racksmith_site_explorer_`), per process. */
export class ExplorerMetrics {
  readonly explored: Counter<"result">;
  readonly errors: Counter<"code">;
  readonly explorationSeconds: Histogram;
  readonly iterationSeconds: Histogram;
  readonly ingested: Counter;
  readonly rotations: Counter;
  readonly hostsByStatus: Gauge<"status">;
  readonly pairingWaits: Gauge<"code">;

  constructor(registry: Registry) {
    const registers = [registry];
    this.explored = new Counter({
      name: `${PREFIX}endpoints_explored_total`,
      help: "Endpoint explorations, by result (ok or error)",
      labelNames: ["result"],
      registers,
    });
    this.errors = new Counter({
      name: `${PREFIX}exploration_errors_total`,
      help: "Failed explorations, by error code (unreachable, timeout, unauthorized, …)",
      labelNames: ["code"],
      registers,
    });
    this.explorationSeconds = new Histogram({
      name: `${PREFIX}exploration_duration_seconds`,
      help: "Time to explore one endpoint (probe, login, report)",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.iterationSeconds = new Histogram({
      name: `${PREFIX}iteration_duration_seconds`,
      help: "Time of one exploration run (explore, pair, ingest)",
      buckets: [0.1, 0.5, 1, 5, 10, 30, 60, 120, 300],
      registers,
    });
    this.ingested = new Counter({
      name: `${PREFIX}ingested_hosts_total`,
      help: "Managed hosts created",
      registers,
    });
    this.rotations = new Counter({
      name: `${PREFIX}credential_rotations_total`,
      help: "BMC passwords rotated to the site password",
      registers,
    });
    this.hostsByStatus = new Gauge({
      name: `${PREFIX}hosts`,
      help: "Host BMCs by ingestion status after the last run",
      labelNames: ["status"],
      registers,
    });
    this.pairingWaits = new Gauge({
      name: `${PREFIX}pairing_waits`,
      help: "Hosts waiting or rejected after the last run, by reason code",
      labelNames: ["code"],
      registers,
    });
  }
}
