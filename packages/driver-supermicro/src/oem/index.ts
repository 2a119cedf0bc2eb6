export type {
  FixedBootOrder,
  HostInterface,
  KcsInterface,
  SerialInterface,
  SupermicroSystemExtras,
  SysLockdown,
} from "./types.js";
