export { type GpuMapping, type HostGpu, type MappedGpu, mapHostGpus } from "./mapHostGpus.js";
