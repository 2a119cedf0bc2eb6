export {
  type DriverFactory,
  DriverMockup,
  type DriverMockupHooks,
  type DriverMockupOptions,
  startDriverMockup,
  useDriverMockup,
} from "./driverMockup.js";
export { type RedfishCliTarget, redfishCliArgs } from "./redfishCliArgs.js";
export { type ReportMacs, reportMacs } from "./reportMacs.js";
export { serviceProbeOf } from "./serviceProbe.js";
export { type RecordedWrite, WriteRecorder, type WriteResponder } from "./writeRecorder.js";
