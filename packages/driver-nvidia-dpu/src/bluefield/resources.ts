import type { ODataLink, RedfishResource } from "@racksmith/core/redfish";

/** The chassis that is the DPU card: its serial is the DPU serial the host BMC sees. */
export const CARD_CHASSIS_ID = "Card1";
/** Firmware inventory entry whose version is the card's base GUID. */
export const SYS_IMAGE_FIRMWARE_ID = "DPU_SYS_IMAGE";

/** `Systems/Bluefield/Oem/Nvidia`. */
export interface NvidiaSystemOem extends RedfishResource {
  /** `DpuMode` or `NicMode` (BF3). */
  Mode?: string;
  /** `Enabled` or `Disabled`: whether the host may reach the DPU's rshim over PCIe (BF3). */
  HostRshim?: string;
  /** The host-facing pf0 base MAC without separators (`5c257308f352`). */
  BaseMAC?: string;
  BaseGUID?: string;
}

/** `Managers/Bluefield_BMC/Oem/Nvidia`. */
export interface NvidiaManagerOem extends RedfishResource {
  BmcRShim?: { BmcRShimEnabled?: boolean };
}

/** A resource with a pending-settings object (`@Redfish.Settings`). */
export interface WithSettingsObject {
  "@Redfish.Settings"?: { SettingsObject?: ODataLink };
}

/** An OEM action that lists its parameters inline (`Mode.Set`, `HostRshim.Set`). */
export interface InlineParameterAction {
  target?: string;
  Parameters?: Array<{ Name?: string; AllowableValues?: unknown[] }>;
}
