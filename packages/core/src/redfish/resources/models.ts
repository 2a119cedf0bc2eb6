import type { ODataLink } from "../types.js";

/**
 * Typed views of the Redfish resources Racksmith reads. BMC data is untrusted, so every field is optional
 * here; `fields.ts` says which ones the product relies on and `checkResource` reports what is missing.
 */
export interface RedfishResource {
  "@odata.id"?: string;
  "@odata.type"?: string;
  "@odata.etag"?: string;
  Id?: string;
  Name?: string;
  Description?: string;
  Status?: ResourceStatus;
  Oem?: Record<string, unknown>;
  Actions?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ResourceStatus {
  State?: string | null;
  Health?: string | null;
  HealthRollup?: string | null;
}

export interface Collection<T = ODataLink> extends RedfishResource {
  Members?: T[];
  "Members@odata.count"?: number;
  "Members@odata.nextLink"?: string;
}

export interface ActionTarget {
  target?: string;
  "ResetType@Redfish.AllowableValues"?: string[];
  "@Redfish.ActionInfo"?: string;
  [key: string]: unknown;
}

export interface ServiceRoot extends RedfishResource {
  RedfishVersion?: string;
  UUID?: string;
  Vendor?: string;
  Product?: string;
  Systems?: ODataLink;
  Managers?: ODataLink;
  Chassis?: ODataLink;
  UpdateService?: ODataLink;
  AccountService?: ODataLink;
  SessionService?: ODataLink;
  TaskService?: ODataLink;
  Tasks?: ODataLink;
  Links?: { Sessions?: ODataLink };
  ProtocolFeaturesSupported?: { ExpandQuery?: { Levels?: boolean; MaxLevels?: number; ExpandAll?: boolean } };
}

export interface BootSettings {
  BootOrder?: string[];
  BootOptions?: ODataLink;
  BootSourceOverrideEnabled?: string;
  BootSourceOverrideTarget?: string;
  BootSourceOverrideMode?: string;
  "BootSourceOverrideTarget@Redfish.AllowableValues"?: string[];
  UefiTargetBootSourceOverride?: string | null;
  HttpBootUri?: string | null;
}

export interface ComputerSystem extends RedfishResource {
  Manufacturer?: string;
  Model?: string;
  SKU?: string | null;
  SerialNumber?: string | null;
  PartNumber?: string | null;
  UUID?: string;
  PowerState?: string;
  BiosVersion?: string;
  Boot?: BootSettings;
  Bios?: ODataLink;
  SecureBoot?: ODataLink;
  EthernetInterfaces?: ODataLink;
  LogServices?: ODataLink;
  Storage?: ODataLink;
  PCIeDevices?: ODataLink[] | ODataLink;
  SerialConsole?: SerialConsoleProtocols;
  TrustedModules?: Array<{ FirmwareVersion?: string; InterfaceType?: string; Status?: ResourceStatus }>;
  Links?: { Chassis?: ODataLink[]; ManagedBy?: ODataLink[] };
}

export interface SerialConsoleProtocols {
  MaxConcurrentSessions?: number;
  IPMI?: { ServiceEnabled?: boolean };
  SSH?: { ServiceEnabled?: boolean };
  Telnet?: { ServiceEnabled?: boolean };
  ServiceEnabled?: boolean;
  ConnectTypesSupported?: string[];
}

export interface Manager extends RedfishResource {
  ManagerType?: string;
  FirmwareVersion?: string;
  UUID?: string;
  Model?: string;
  EthernetInterfaces?: ODataLink;
  LogServices?: ODataLink;
  NetworkProtocol?: ODataLink;
  SerialConsole?: SerialConsoleProtocols;
  Links?: { ManagerForServers?: ODataLink[]; ManagerForChassis?: ODataLink[] };
}

export interface Chassis extends RedfishResource {
  ChassisType?: string;
  Manufacturer?: string;
  Model?: string;
  PartNumber?: string | null;
  SerialNumber?: string | null;
  SKU?: string | null;
  PowerState?: string;
  NetworkAdapters?: ODataLink;
  PCIeDevices?: ODataLink;
  Thermal?: ODataLink;
  Power?: ODataLink;
  Sensors?: ODataLink;
  Assembly?: ODataLink;
}

export interface EthernetInterface extends RedfishResource {
  MACAddress?: string | null;
  MacAddress?: string | null;
  PermanentMACAddress?: string | null;
  UefiDevicePath?: string | null;
  InterfaceEnabled?: boolean | null;
  LinkStatus?: string | null;
  SpeedMbps?: number | null;
  IPv4Addresses?: Array<{ Address?: string | null; AddressOrigin?: string | null }>;
  /** `Physical`, or `Virtual` for a VLAN or bond interface, which carries its parent's MAC (v1.6+). */
  EthernetInterfaceType?: string | null;
  /** This interface's own VLAN tagging (a `VLanNetworkInterface`); a VLAN sub-interface has `VLANEnable: true`. */
  VLAN?: { VLANEnable?: boolean | null; VLANId?: number | null; Tagged?: boolean | null } | null;
  /** The VLANs configured on this interface (`VLanNetworkInterface` members, which have no MAC of their own). */
  VLANs?: ODataLink;
  /** A VLAN or bond interface names the interfaces it is built on in `RelatedInterfaces`. */
  Links?: { RelatedInterfaces?: ODataLink[]; [key: string]: unknown };
}

export interface PCIeDevice extends RedfishResource {
  Manufacturer?: string | null;
  Model?: string | null;
  PartNumber?: string | null;
  SerialNumber?: string | null;
  FirmwareVersion?: string | null;
  DeviceType?: string | null;
  PCIeFunctions?: ODataLink;
  Links?: { PCIeFunctions?: ODataLink[]; Chassis?: ODataLink[] };
}

export interface NetworkAdapter extends RedfishResource {
  Manufacturer?: string | null;
  Model?: string | null;
  PartNumber?: string | null;
  SerialNumber?: string | null;
  Ports?: ODataLink;
  NetworkPorts?: ODataLink;
  NetworkDeviceFunctions?: ODataLink;
  Controllers?: Array<{ FirmwarePackageVersion?: string | null; Links?: { PCIeDevices?: ODataLink[] } }>;
}

export interface Port extends RedfishResource {
  PortId?: string;
  LinkStatus?: string | null;
  CurrentSpeedGbps?: number | null;
  PortProtocol?: string | null;
  Ethernet?: { AssociatedMACAddresses?: string[] };
}

export interface NetworkDeviceFunction extends RedfishResource {
  NetDevFuncType?: string | null;
  Ethernet?: { MACAddress?: string | null; PermanentMACAddress?: string | null };
  InfiniBand?: { PortGUID?: string | null; NodeGUID?: string | null };
}

export type BiosValue = string | number | boolean | null;

export interface Bios extends RedfishResource {
  AttributeRegistry?: string;
  Attributes?: Record<string, BiosValue>;
  "@Redfish.Settings"?: { SettingsObject?: ODataLink; SupportedApplyTimes?: string[] };
}

export interface BootOption extends RedfishResource {
  DisplayName?: string;
  BootOptionReference?: string;
  BootOptionEnabled?: boolean;
  UefiDevicePath?: string | null;
  Alias?: string | null;
}

export interface SecureBoot extends RedfishResource {
  SecureBootEnable?: boolean | null;
  SecureBootCurrentBoot?: string | null;
  SecureBootMode?: string | null;
}

export interface AccountService extends RedfishResource {
  ServiceEnabled?: boolean;
  Accounts?: ODataLink;
  Roles?: ODataLink;
  MinPasswordLength?: number;
  MaxPasswordLength?: number;
  AccountLockoutThreshold?: number;
  AccountLockoutDuration?: number;
  AccountLockoutCounterResetAfter?: number;
}

export interface ManagerAccount extends RedfishResource {
  UserName?: string;
  RoleId?: string;
  Enabled?: boolean;
  Locked?: boolean;
  Password?: null;
  PasswordChangeRequired?: boolean;
}

export interface UpdateService extends RedfishResource {
  ServiceEnabled?: boolean;
  FirmwareInventory?: ODataLink;
  SoftwareInventory?: ODataLink;
  HttpPushUri?: string;
  MultipartHttpPushUri?: string;
}

export interface SoftwareInventory extends RedfishResource {
  Version?: string | null;
  Updateable?: boolean;
  ReleaseDate?: string | null;
  SoftwareId?: string;
  Manufacturer?: string;
}

export interface TaskService extends RedfishResource {
  Tasks?: ODataLink;
  ServiceEnabled?: boolean;
}

export interface Task extends RedfishResource {
  TaskState?: string;
  TaskStatus?: string;
  PercentComplete?: number;
  StartTime?: string;
  EndTime?: string;
  TaskMonitor?: string;
  Messages?: Array<{ MessageId?: string; Message?: string; Severity?: string }>;
}

export interface LogService extends RedfishResource {
  LogEntryType?: string;
  OverWritePolicy?: string;
  MaxNumberOfRecords?: number;
  Entries?: ODataLink;
}

export interface LogEntry extends RedfishResource {
  EntryType?: string;
  Created?: string;
  Severity?: string;
  Message?: string;
  MessageId?: string;
  MessageArgs?: string[];
  SensorType?: string;
}

export interface Thresholds {
  UpperCritical?: { Reading?: number | null };
  LowerCritical?: { Reading?: number | null };
  UpperCaution?: { Reading?: number | null };
  LowerCaution?: { Reading?: number | null };
  UpperFatal?: { Reading?: number | null };
  LowerFatal?: { Reading?: number | null };
}

export interface Thermal extends RedfishResource {
  Temperatures?: Array<{
    MemberId?: string;
    Name?: string;
    ReadingCelsius?: number | null;
    UpperThresholdCritical?: number | null;
    UpperThresholdNonCritical?: number | null;
    LowerThresholdCritical?: number | null;
    LowerThresholdNonCritical?: number | null;
    MinReadingRangeTemp?: number | null;
    MaxReadingRangeTemp?: number | null;
    PhysicalContext?: string;
    Status?: ResourceStatus;
  }>;
  Fans?: Array<{
    MemberId?: string;
    Name?: string;
    FanName?: string;
    Reading?: number | null;
    ReadingUnits?: string | null;
    UpperThresholdCritical?: number | null;
    LowerThresholdCritical?: number | null;
    LowerThresholdNonCritical?: number | null;
    MinReadingRange?: number | null;
    MaxReadingRange?: number | null;
    Status?: ResourceStatus;
  }>;
}

export interface Power extends RedfishResource {
  PowerControl?: Array<{
    MemberId?: string;
    Name?: string;
    PowerConsumedWatts?: number | null;
    PowerCapacityWatts?: number | null;
    Status?: ResourceStatus;
  }>;
  PowerSupplies?: Array<{
    MemberId?: string;
    Name?: string;
    PowerInputWatts?: number | null;
    PowerOutputWatts?: number | null;
    LastPowerOutputWatts?: number | null;
    LineInputVoltage?: number | null;
    PowerCapacityWatts?: number | null;
    SerialNumber?: string | null;
    Model?: string | null;
    FirmwareVersion?: string | null;
    Status?: ResourceStatus;
  }>;
  Voltages?: Array<{
    MemberId?: string;
    Name?: string;
    ReadingVolts?: number | null;
    UpperThresholdCritical?: number | null;
    LowerThresholdCritical?: number | null;
    Status?: ResourceStatus;
  }>;
}

export interface Sensor extends RedfishResource {
  Reading?: number | null;
  ReadingType?: string;
  ReadingUnits?: string | null;
  ReadingRangeMax?: number | null;
  ReadingRangeMin?: number | null;
  PhysicalContext?: string;
  Thresholds?: Thresholds;
}

export interface Storage extends RedfishResource {
  Drives?: ODataLink[];
  "Drives@odata.count"?: number;
  StorageControllers?: Array<{ Model?: string; FirmwareVersion?: string; Status?: ResourceStatus }>;
  Controllers?: ODataLink;
}

export interface Drive extends RedfishResource {
  Manufacturer?: string | null;
  Model?: string | null;
  SerialNumber?: string | null;
  PartNumber?: string | null;
  CapacityBytes?: number | null;
  MediaType?: string | null;
  Protocol?: string | null;
  Revision?: string | null;
  FailurePredicted?: boolean | null;
}
