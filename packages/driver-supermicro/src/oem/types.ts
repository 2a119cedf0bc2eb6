import type { ODataLink, RedfishResource } from "@racksmith/core/redfish";

/** `Managers/{m}/Oem/Supermicro/SysLockdown`: the BMC-wide configuration lock. */
export interface SysLockdown extends RedfishResource {
  SysLockdownEnabled?: boolean;
}

/** `Managers/{m}/Oem/Supermicro/KCSInterface`: the IPMI privilege the host gets; `Callback` is the locked one. */
export interface KcsInterface extends RedfishResource {
  Privilege?: string;
}

/** `Managers/{m}/HostInterfaces/{id}`: the Redfish host interface (BMC reachable from the host OS). */
export interface HostInterface extends RedfishResource {
  InterfaceEnabled?: boolean;
}

/** `Managers/{m}/SerialInterfaces/{id}`: the serial port Serial-over-LAN rides on. */
export interface SerialInterface extends RedfishResource {
  InterfaceEnabled?: boolean;
  SignalType?: string;
  BitRate?: string;
  Parity?: string;
  DataBits?: string;
  StopBits?: string;
  FlowControl?: string;
  ConnectorType?: string;
  PinOut?: string;
}

/**
 * `Systems/{s}/Oem/Supermicro/FixedBootOrder`: the BIOS boot order by device category (`UEFI Network:…`,
 * `UEFI Hard Disk`, …) and, per category, the order of its devices (`UEFINetwork`).
 */
export interface FixedBootOrder extends RedfishResource {
  BootModeSelected?: string;
  FixedBootOrder?: string[];
  FixedBootOrderDisabledItem?: string[];
  UEFINetwork?: string[];
}

/** What the driver reads of a Supermicro system beyond the standard resource. */
export interface SupermicroSystemExtras {
  /** MGX C2 systems (no KCS): in-band IPMI switch on the system, firmware 01.05.01 and later. */
  IPMIHostInterface?: { ServiceEnabled?: boolean };
  Oem?: { Supermicro?: { FixedBootOrder?: ODataLink } };
}
