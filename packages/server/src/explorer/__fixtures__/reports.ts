import type { ExplorationReport, ExploredSystem, PowerState } from "@racksmith/core";

/** Compact exploration reports for the explorer's table tests. */
export interface HostReportSpec {
  serial?: string;
  chassisSerial?: string;
  power?: PowerState;
  pcie?: Array<{ partNumber?: string; serial?: string }>;
  adapters?: Array<{ partNumber?: string; serial?: string }>;
  nics?: Array<{ mac: string; path?: string }>;
}

export function hostReport(spec: HostReportSpec = {}): ExplorationReport {
  return report({
    systems: [
      system({
        serialNumber: spec.serial,
        powerState: spec.power ?? "On",
        ethernetInterfaces: (spec.nics ?? []).map((nic, i) => ({
          id: `NIC${i + 1}`,
          mac: nic.mac,
          uefiDevicePath: nic.path,
          enabled: true,
          linkStatus: undefined,
          ipv4Addresses: [],
        })),
        pcieDevices: (spec.pcie ?? []).map((device, i) => ({
          id: `pcie-${i}`,
          name: undefined,
          manufacturer: undefined,
          model: undefined,
          partNumber: device.partNumber,
          serialNumber: device.serial,
          firmwareVersion: undefined,
          deviceType: undefined,
          state: undefined,
          health: undefined,
          systemId: "1",
          chassisId: "1",
        })),
      }),
    ],
    chassis: [
      {
        id: "1",
        chassisType: "RackMount",
        manufacturer: undefined,
        model: undefined,
        partNumber: undefined,
        serialNumber: spec.chassisSerial,
        networkAdapters: (spec.adapters ?? []).map((adapter, i) => ({
          id: `adapter-${i}`,
          chassisId: "1",
          manufacturer: undefined,
          model: undefined,
          partNumber: adapter.partNumber,
          serialNumber: adapter.serial,
          firmwareVersion: undefined,
        })),
      },
    ],
  });
}

export function dpuReport(spec: {
  serial: string;
  baseMac?: string;
  nicMode?: "dpu" | "nic";
}): ExplorationReport {
  return report({
    driverName: "nvidia-dpu",
    systems: [
      system({
        serialNumber: spec.serial,
        ...(spec.baseMac ? { baseMac: spec.baseMac } : {}),
        ...(spec.nicMode ? { nicMode: spec.nicMode } : {}),
      }),
    ],
    chassis: [],
  });
}

function system(fields: Partial<ExploredSystem>): ExploredSystem {
  return {
    id: "1",
    manufacturer: undefined,
    model: undefined,
    serialNumber: undefined,
    sku: undefined,
    uuid: undefined,
    powerState: "On",
    biosVersion: undefined,
    bootOrder: [],
    ethernetInterfaces: [],
    pcieDevices: [],
    ...fields,
  };
}

/** A switch tray's or a power shelf's BMC (no computer system), shown with the serial of its chassis. */
export function nonHostReport(spec: {
  kind: Exclude<ExplorationReport["endpointKind"], "host">;
  chassisSerial?: string;
}): ExplorationReport {
  const chassisId = spec.kind === "switch" ? "MGX_NVSwitch_0" : "Shelf_0";
  return report({
    endpointKind: spec.kind,
    endpointKindReason:
      spec.kind === "unknown" ? "no computer system, switch or power shelf" : `chassis ${chassisId}`,
    systems: [],
    chassis: [
      {
        id: chassisId,
        chassisType: spec.kind === "switch" ? "Enclosure" : "Shelf",
        manufacturer: undefined,
        model: undefined,
        partNumber: undefined,
        serialNumber: spec.chassisSerial,
        networkAdapters: [],
      },
    ],
  });
}

function report(parts: {
  driverName?: string;
  endpointKind?: ExplorationReport["endpointKind"];
  endpointKindReason?: string;
  systems: ExplorationReport["systems"];
  chassis: ExplorationReport["chassis"];
}): ExplorationReport {
  return {
    endpointType: "bmc",
    endpointKind: parts.endpointKind ?? "host",
    endpointKindReason: parts.endpointKindReason ?? "computer system 1",
    vendor: undefined,
    product: undefined,
    redfishVersion: undefined,
    driver: { name: parts.driverName ?? "redfish-standard", pinned: false },
    candidates: [],
    managers: [],
    systems: parts.systems,
    chassis: parts.chassis,
    firmware: [],
    oemNamespaces: [],
    diagnostics: [],
    exploredAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
  };
}
