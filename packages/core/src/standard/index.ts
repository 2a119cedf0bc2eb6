export { bootOptionMatches, findDpuBootOption, moveToFront } from "./bootMatching.js";
export { redfishStandardDriver } from "./definition.js";
export { entriesSince, pickLogService } from "./eventLogs.js";
export { exploreWithDriver } from "./explore.js";
export {
  macFromText,
  macFromUefiDevicePath,
  normalizeMac,
  toBootOptionInfo,
  toEthernetInterfaceInfo,
  toPcieDeviceInfo,
  trimSerial,
} from "./mappers.js";
export { attributeDiffs, diffAttributes, jobStateOf, RedfishStandard, triState } from "./redfishStandard.js";
export { powerMetricsFrom, readingFromSensor, readingsFromThermal } from "./sensors.js";
