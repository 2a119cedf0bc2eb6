export { describeFirmware, hasKcsSetting, type IloFirmware, iloFirmware } from "./firmware.js";
export {
  type HpeBaseNetworkAdapter,
  type HpeBootSource,
  type HpeManagerOem,
  type HpeNetworkProtocolOem,
  type HpeServerBootSettings,
  type HpeSystemOem,
  type HpeUpdateServiceOem,
  hpeAction,
  hpeOem,
  type ManagerNetworkProtocol,
} from "./oem.js";
