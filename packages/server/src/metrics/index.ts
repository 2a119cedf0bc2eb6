export { prometheusMetrics } from "./prometheusMetrics.js";
