/**
 * The fields Racksmith relies on, per resource kind, with the importance NICo's "Redfish Endpoints
 * Reference" gives them. `checkResource` turns this table into ajv schemas; a violation becomes a diagnostic
 * naming the URL and the field.
 */
export type FieldImportance = "critical" | "required" | "recommended" | "optional";

export type FieldType =
  | "string"
  | "number"
  | "boolean"
  | "link"
  | "links"
  | "link-or-links"
  | "array"
  | "object";

export interface FieldSpec {
  type: FieldType;
  importance: FieldImportance;
  /** `null` is a legal value (Redfish allows it for many read-only properties). */
  nullable?: boolean;
}

export type ResourceKind =
  | "ServiceRoot"
  | "ComputerSystem"
  | "Manager"
  | "Chassis"
  | "EthernetInterface"
  | "ManagerEthernetInterface"
  | "PCIeDevice"
  | "NetworkAdapter"
  | "Port"
  | "NetworkDeviceFunction"
  | "Bios"
  | "BootOption"
  | "SecureBoot"
  | "AccountService"
  | "ManagerAccount"
  | "UpdateService"
  | "SoftwareInventory"
  | "TaskService"
  | "Task"
  | "LogService"
  | "LogEntry"
  | "Thermal"
  | "Power"
  | "Sensor"
  | "Storage"
  | "Drive"
  | "Collection";

const str = (importance: FieldImportance, nullable = importance !== "critical"): FieldSpec => ({
  type: "string",
  importance,
  nullable,
});
const num = (importance: FieldImportance): FieldSpec => ({ type: "number", importance, nullable: true });
const bool = (importance: FieldImportance): FieldSpec => ({ type: "boolean", importance, nullable: true });
const link = (importance: FieldImportance): FieldSpec => ({ type: "link", importance });
const arr = (importance: FieldImportance): FieldSpec => ({ type: "array", importance });
const obj = (importance: FieldImportance): FieldSpec => ({ type: "object", importance });

export const RESOURCE_FIELDS: Readonly<Record<ResourceKind, Readonly<Record<string, FieldSpec>>>> = {
  ServiceRoot: {
    Vendor: str("required"),
    Product: str("optional"),
    Systems: link("required"),
    Managers: link("required"),
    Chassis: link("required"),
    UpdateService: link("required"),
    AccountService: link("recommended"),
    SessionService: link("recommended"),
    RedfishVersion: str("recommended"),
    Oem: obj("optional"),
  },
  ComputerSystem: {
    Id: str("required", false),
    SerialNumber: str("critical"),
    PowerState: str("required"),
    Boot: obj("required"),
    EthernetInterfaces: link("required"),
    PCIeDevices: { type: "link-or-links", importance: "required" },
    Model: str("recommended"),
    Manufacturer: str("recommended"),
    SKU: str("optional"),
    BiosVersion: str("optional"),
    Bios: link("recommended"),
    SecureBoot: link("optional"),
    LogServices: link("optional"),
    Storage: link("optional"),
    TrustedModules: arr("optional"),
  },
  Manager: {
    Id: str("required", false),
    FirmwareVersion: str("required"),
    EthernetInterfaces: link("required"),
    LogServices: link("required"),
    UUID: str("recommended"),
    ManagerType: str("optional"),
  },
  Chassis: {
    Id: str("critical"),
    SerialNumber: str("critical", true),
    PartNumber: str("required"),
    NetworkAdapters: link("required"),
    Model: str("recommended"),
    Manufacturer: str("recommended"),
    PCIeDevices: link("optional"),
    Thermal: link("optional"),
    Power: link("optional"),
    Sensors: link("optional"),
  },
  EthernetInterface: {
    Id: str("required", false),
    MACAddress: str("critical", true),
    UefiDevicePath: str("required"),
    InterfaceEnabled: bool("optional"),
  },
  // A BMC's own NIC: only its MAC matters (credentials are keyed by it); it has no UEFI device path.
  ManagerEthernetInterface: { Id: str("required", false), MACAddress: str("critical", true) },
  PCIeDevice: {
    Id: str("required", false),
    SerialNumber: str("critical", true),
    PartNumber: str("critical", true),
    FirmwareVersion: str("optional"),
    Manufacturer: str("optional"),
  },
  NetworkAdapter: {
    Id: str("required", false),
    SerialNumber: str("critical", true),
    PartNumber: str("critical", true),
    Manufacturer: str("optional"),
    Controllers: arr("optional"),
  },
  Port: { Id: str("required", false), LinkStatus: str("optional"), CurrentSpeedGbps: num("optional") },
  NetworkDeviceFunction: {
    Id: str("required", false),
    Ethernet: obj("optional"),
    NetDevFuncType: str("optional"),
  },
  Bios: { Attributes: obj("required"), AttributeRegistry: str("optional") },
  BootOption: {
    Id: str("required", false),
    DisplayName: str("required"),
    UefiDevicePath: str("required"),
    BootOptionReference: str("required"),
    BootOptionEnabled: bool("optional"),
  },
  SecureBoot: {
    SecureBootEnable: bool("required"),
    SecureBootCurrentBoot: str("required"),
    SecureBootMode: str("optional"),
  },
  AccountService: { Accounts: link("required"), AccountLockoutThreshold: num("optional") },
  ManagerAccount: { Id: str("required", false), UserName: str("required"), RoleId: str("required") },
  UpdateService: { FirmwareInventory: link("required"), HttpPushUri: str("optional") },
  SoftwareInventory: {
    Id: str("required", false),
    Version: str("required"),
    Name: str("required"),
    ReleaseDate: str("optional"),
  },
  TaskService: { Tasks: link("required") },
  Task: { TaskState: str("required", false), PercentComplete: num("optional"), Messages: arr("optional") },
  LogService: { Entries: link("required"), LogEntryType: str("optional") },
  LogEntry: {
    Id: str("required", false),
    Created: str("required"),
    Severity: str("required"),
    Message: str("required"),
    MessageArgs: arr("optional"),
  },
  Thermal: { Temperatures: arr("recommended"), Fans: arr("recommended") },
  Power: { PowerControl: arr("recommended"), PowerSupplies: arr("recommended") },
  Sensor: {
    Name: str("required"),
    Reading: num("required"),
    ReadingUnits: str("required"),
    Status: obj("required"),
    Thresholds: obj("optional"),
    ReadingRangeMax: num("optional"),
    ReadingRangeMin: num("optional"),
  },
  Storage: { Drives: arr("recommended") },
  Drive: { Id: str("required", false), SerialNumber: str("recommended"), Model: str("optional") },
  Collection: { Members: arr("required") },
};
