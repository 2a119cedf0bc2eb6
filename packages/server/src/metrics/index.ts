export { ExpositionRegistry, GroupedGauge, type GroupedSeries } from "./groupedGauge.js";
export { prometheusMetrics } from "./prometheusMetrics.js";
