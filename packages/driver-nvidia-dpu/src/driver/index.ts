export { BLUEFIELD_MODELS, nvidiaDpuDriver } from "./definition.js";
export { DRIVER_NAME, NvidiaDpuDriver } from "./nvidiaDpuDriver.js";
