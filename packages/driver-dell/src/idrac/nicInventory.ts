import { InvalidArgumentError, normalizeMac } from "@racksmith/core";
import type { NetworkAdapter, NetworkDeviceFunction } from "@racksmith/core/redfish";
import { DpuNicNotFoundError } from "../errors/index.js";
import type { IdracResources } from "./resources.js";

/** A host NIC port as the iDRAC names it: FQDD (`NIC.Slot.5-1`), MAC, and the description boot options use. */
export interface DellNic {
  fqdd: string;
  mac: string | undefined;
  /** DellNIC DeviceDescription (`NIC in Slot 5 Port 1`): the name HTTP/PXE boot devices carry. */
  description: string | undefined;
  pciVendorId: string | undefined;
  pciDeviceId: string | undefined;
}

interface DellNicOem {
  Id?: string;
  FQDD?: string;
  DeviceDescription?: string;
  PCIVendorID?: string;
  PCIDeviceID?: string;
}

function dellNicOf(resource: NetworkDeviceFunction): DellNicOem {
  const dell = (resource.Oem as { Dell?: { DellNIC?: DellNicOem | null } } | undefined)?.Dell;
  return dell?.DellNIC ?? {};
}

function toDellNic(resource: NetworkDeviceFunction): DellNic {
  const oem = dellNicOf(resource);
  return {
    fqdd: oem.Id ?? oem.FQDD ?? resource.Id ?? "",
    mac: normalizeMac(resource.Ethernet?.MACAddress) ?? normalizeMac(resource.Ethernet?.PermanentMACAddress),
    description: oem.DeviceDescription,
    pciVendorId: oem.PCIVendorID,
    pciDeviceId: oem.PCIDeviceID,
  };
}

/** The host's NIC ports from Chassis NetworkAdapters → NetworkDeviceFunctions → Oem.Dell.DellNIC. */
export class NicInventory {
  constructor(private readonly idrac: IdracResources) {}

  async list(): Promise<DellNic[]> {
    const chassis = await this.idrac.networkChassis();
    const adapters = (
      await Promise.all(
        chassis.map((c) => this.idrac.members<NetworkAdapter>(c.NetworkAdapters?.["@odata.id"] as string)),
      )
    ).flat();
    const functions = await Promise.all(
      adapters.flatMap((adapter) => {
        const link = adapter.NetworkDeviceFunctions?.["@odata.id"];
        return link ? [this.idrac.members<NetworkDeviceFunction>(link)] : [];
      }),
    );
    return functions.flat().map(toDellNic);
  }

  /** The port with this MAC: the DPU's host-facing port when the caller pairs a DPU. */
  async byMac(mac: string): Promise<DellNic> {
    const wanted = normalizeMac(mac);
    if (!wanted) throw new InvalidArgumentError(`${JSON.stringify(mac)} is not a MAC address`);
    const nics = await this.list();
    const nic = nics.find((candidate) => candidate.mac === wanted);
    if (!nic)
      throw new DpuNicNotFoundError(
        wanted,
        nics.flatMap((n) => (n.mac ? [n.mac] : [])),
      );
    return nic;
  }
}
