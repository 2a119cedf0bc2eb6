import type { CounterMetric, GaugeMetric, HistogramMetric, Metrics } from "../metrics/index.js";

const PREFIX = "racksmith_state_";
const SAMPLE_REUSE_MS = 1_000;

/** Database-wide figures read when metrics are scraped (every replica reports the same values). */
export interface GaugeSample {
  objects: Array<{ objectType: string; state: string; count: number }>;
  aboveSla: Array<{ objectType: string; state: string; count: number }>;
  queue: Array<{ objectType: string; waiting: number; claimed: number }>;
}

/**
 * The engine's Prometheus metrics (prefix `racksmith_state_`, label `object_type`). Counters and histograms
 * are per process; the per-state and queue gauges are sampled from the database on scrape.
 */
export class EngineMetrics {
  readonly transitions: CounterMetric<"object_type" | "from" | "to">;
  readonly handlerSeconds: HistogramMetric<"object_type" | "state" | "outcome">;
  readonly errors: CounterMetric<"object_type" | "state" | "code">;
  readonly timeInStateSeconds: HistogramMetric<"object_type" | "state">;
  readonly enqueueToStartSeconds: HistogramMetric<"object_type">;
  readonly staleWrites: CounterMetric<"object_type" | "reason">;
  readonly inFlight: GaugeMetric<"object_type">;
  private cached: { at: number; sample: Promise<GaugeSample> } | undefined;

  constructor(
    metrics: Metrics,
    private readonly sample: () => Promise<GaugeSample>,
    private readonly onSampleError: (error: unknown) => void,
  ) {
    this.transitions = metrics.counter({
      name: `${PREFIX}transitions_total`,
      help: "State transitions committed, by from/to state",
      labelNames: ["object_type", "from", "to"],
    });
    this.handlerSeconds = metrics.histogram({
      name: `${PREFIX}handler_duration_seconds`,
      help: "Handler run time, by state and outcome",
      labelNames: ["object_type", "state", "outcome"],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 180],
    });
    this.errors = metrics.counter({
      name: `${PREFIX}handler_errors_total`,
      help: "Handler errors (state kept), by state and error code",
      labelNames: ["object_type", "state", "code"],
    });
    this.timeInStateSeconds = metrics.histogram({
      name: `${PREFIX}time_in_state_seconds`,
      help: "Time spent in a state, observed when the object leaves it",
      labelNames: ["object_type", "state"],
      buckets: [1, 10, 60, 300, 900, 1800, 3600, 7200, 21_600, 86_400],
    });
    this.enqueueToStartSeconds = metrics.histogram({
      name: `${PREFIX}enqueue_to_start_seconds`,
      help: "Delay from an enqueue (or a transition) to the handler start",
      labelNames: ["object_type"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    });
    this.staleWrites = metrics.counter({
      name: `${PREFIX}stale_writes_total`,
      help: "Final writes discarded: version changed (version) or claim lost (lease)",
      labelNames: ["object_type", "reason"],
    });
    this.inFlight = metrics.gauge({
      name: `${PREFIX}handlers_in_flight`,
      help: "Handlers running in this process",
      labelNames: ["object_type"],
    });
    const perState =
      (rows: (s: GaugeSample) => GaugeSample["objects"]) =>
      (gauge: GaugeMetric<"object_type" | "state">, sample: GaugeSample) => {
        for (const row of rows(sample))
          gauge.set({ object_type: row.objectType, state: row.state }, row.count);
      };
    this.sampledGauge(
      metrics,
      "objects",
      "Objects per state",
      ["object_type", "state"],
      perState((s) => s.objects),
    );
    this.sampledGauge(
      metrics,
      "objects_above_sla",
      "Objects whose time in state is above the state's SLA",
      ["object_type", "state"],
      perState((s) => s.aboveSla),
    );
    this.sampledGauge(
      metrics,
      "queue_depth",
      "Queue rows due and waiting for a worker",
      ["object_type"],
      (gauge, sample) => {
        for (const row of sample.queue) gauge.set({ object_type: row.objectType }, row.waiting);
      },
    );
    this.sampledGauge(
      metrics,
      "queue_claimed",
      "Queue rows held by a live claim",
      ["object_type"],
      (gauge, sample) => {
        for (const row of sample.queue) gauge.set({ object_type: row.objectType }, row.claimed);
      },
    );
  }

  /** A gauge refilled on every scrape from one database sample shared by all the sampled gauges. */
  private sampledGauge<L extends string>(
    metrics: Metrics,
    name: string,
    help: string,
    labelNames: L[],
    fill: (gauge: GaugeMetric<L>, sample: GaugeSample) => void,
  ): void {
    metrics.sampledGauge({ name: `${PREFIX}${name}`, help, labelNames }, async (gauge) => {
      try {
        fill(gauge, await this.currentSample());
      } catch (error) {
        this.onSampleError(error);
      }
    });
  }

  private currentSample(): Promise<GaugeSample> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > SAMPLE_REUSE_MS) {
      this.cached = { at: now, sample: this.sample() };
      // A failed sample is not reused.
      this.cached.sample.catch(() => {
        this.cached = undefined;
      });
    }
    return this.cached.sample;
  }
}
