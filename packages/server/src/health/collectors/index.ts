export { type CollectorStatus, HealthCollectors, type HealthCollectorsOptions } from "./healthCollectors.js";
