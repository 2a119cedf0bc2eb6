export {
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  type MetricLabels,
  type MetricSpec,
  type Metrics,
  noMetrics,
} from "./metrics.js";
