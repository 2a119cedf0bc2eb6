import type { Logger } from "@racksmith/core";
import type { Chassis, ComputerSystem, Manager, RedfishClient, RedfishObject } from "@racksmith/core/redfish";

/** What the Supermicro feature modules need from the driver: its client and resolved resources. */
export interface BmcAccess {
  readonly client: RedfishClient;
  readonly logger: Logger;
  system(): Promise<ComputerSystem>;
  manager(): Promise<Manager>;
  systemPath(): Promise<string>;
  managerPath(): Promise<string>;
  biosPath(): Promise<string>;
  allChassis(): Promise<Chassis[]>;
  /** A collection's members, expanded in one request when the BMC supports it. */
  members<T extends RedfishObject>(path: string): Promise<T[]>;
}

/** The `Oem.Supermicro.<name>` link of a resource. */
export function oemLink(resource: RedfishObject, name: string): string | undefined {
  const oem = (
    resource.Oem as { Supermicro?: Record<string, { "@odata.id"?: string } | undefined> } | undefined
  )?.Supermicro;
  return oem?.[name]?.["@odata.id"];
}
