import type { BiosAttributes, BootOrderInfo, Logger } from "@racksmith/core";
import type { Chassis, ComputerSystem, Manager, RedfishClient, RedfishObject } from "@racksmith/core/redfish";

/** What the iDRAC helpers need from the driver: its client and the resources it already knows how to find. */
export interface IdracResources {
  readonly client: RedfishClient;
  readonly logger: Logger;
  readonly settings: Readonly<Record<string, unknown>> | undefined;
  systemPath(): Promise<string>;
  managerPath(): Promise<string>;
  managerId(): Promise<string>;
  system(): Promise<ComputerSystem>;
  manager(): Promise<Manager>;
  /** Current BIOS attributes. */
  bios(): Promise<BiosAttributes>;
  biosPath(): Promise<string>;
  /** The BIOS pending-settings object (`Systems/{s}/Bios/Settings`). */
  biosSettingsPath(): Promise<string>;
  /** Boot order and options as the BMC lists them (no NIC lookups). */
  bootOrder(): Promise<BootOrderInfo>;
  /** Members of a collection, expanded in one request when the iDRAC allows it. */
  members<T extends RedfishObject>(path: string): Promise<T[]>;
  /** The chassis whose NetworkAdapters hold the host's NICs (the one named like the system first). */
  networkChassis(): Promise<Chassis[]>;
}
