/**
 * The metrics contract the engine (and any plugin) records through. It is the subset of prom-client's API
 * in use, so the service backs it with Prometheus; the core holds no metrics library.
 */
export type MetricLabels<L extends string> = Record<L, string>;

export interface MetricSpec<L extends string> {
  name: string;
  help: string;
  labelNames: L[];
}

export interface CounterMetric<L extends string> {
  inc(labels: MetricLabels<L>, value?: number): void;
}

export interface HistogramMetric<L extends string> {
  observe(labels: MetricLabels<L>, value: number): void;
}

export interface GaugeMetric<L extends string> {
  set(labels: MetricLabels<L>, value: number): void;
}

export interface Metrics {
  counter<L extends string>(spec: MetricSpec<L>): CounterMetric<L>;
  histogram<L extends string>(spec: MetricSpec<L> & { buckets: number[] }): HistogramMetric<L>;
  gauge<L extends string>(spec: MetricSpec<L>): GaugeMetric<L>;
  /** A gauge emptied and refilled by `fill` each time the metrics are read (scraped). */
  sampledGauge<L extends string>(spec: MetricSpec<L>, fill: (gauge: GaugeMetric<L>) => Promise<void>): void;
}

const ignored = { inc() {}, observe() {}, set() {} };

/** Records nothing: the default when no metrics are wanted. */
export const noMetrics: Metrics = {
  counter: () => ignored,
  histogram: () => ignored,
  gauge: () => ignored,
  sampledGauge: () => {},
};
