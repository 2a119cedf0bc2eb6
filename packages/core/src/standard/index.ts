export { bootOptionMatches, findDpuBootOption, moveToFront, OVERRIDE_TARGET } from "./bootMatching.js";
export { redfishStandardDriver } from "./definition.js";
export { entriesSince, pickLogService } from "./eventLogs.js";
export { exploreWithDriver } from "./explore.js";
export {
  macFromText,
  macFromUefiDevicePath,
  normalizeMac,
  toAccountInfo,
  toBootOptionInfo,
  toEthernetInterfaceInfo,
  toPcieDeviceInfo,
  toPowerState,
  trimSerial,
} from "./mappers.js";
export {
  attributeDiffs,
  BootOptionNotFoundError,
  diffAttributes,
  jobStateOf,
  RedfishStandard,
  requireMac,
  taskRefOf,
  triState,
} from "./redfishStandard.js";
export { powerMetricsFrom, readingFromSensor, readingsFromThermal } from "./sensors.js";
