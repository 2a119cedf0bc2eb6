import { type NetworkAdapterInfo, trimSerial } from "@racksmith/core";
import type { HpeBaseNetworkAdapter } from "../ilo/index.js";

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** iLO 5's `BaseNetworkAdapters` view also lists adapters without Redfish device support (OCP, LOM). */
export function toBaseAdapterInfo(adapter: HpeBaseNetworkAdapter, chassisId: string): NetworkAdapterInfo {
  return {
    id: text(adapter.StructuredName) ?? adapter.Id ?? "",
    chassisId,
    manufacturer: undefined,
    model: text(adapter.Name),
    partNumber: text(adapter.PartNumber),
    serialNumber: trimSerial(adapter.SerialNumber),
    firmwareVersion: text(adapter.Firmware?.Current?.VersionString),
  };
}

/** The chassis adapters plus the base adapters they do not already list (same serial number). */
export function mergeAdapters(
  chassis: readonly NetworkAdapterInfo[],
  base: readonly NetworkAdapterInfo[],
): NetworkAdapterInfo[] {
  const serials = new Set(chassis.map((adapter) => adapter.serialNumber).filter(Boolean));
  return [
    ...chassis,
    ...base.filter((adapter) => !adapter.serialNumber || !serials.has(adapter.serialNumber)),
  ];
}
