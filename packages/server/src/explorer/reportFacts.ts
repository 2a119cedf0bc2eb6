import type { ExplorationReport } from "@racksmith/core";
import { normalizeMac } from "@racksmith/core";
import { isBluefieldPartNumber } from "./bluefield.js";

/**
 * True for the report of a DPU's own BMC (not of a host that carries DPUs): the BMC runs the DPU driver, or
 * its system tells a BlueField's mode or host-facing MAC, or its `Card1` chassis is a BlueField.
 */
export function isDpuReport(report: ExplorationReport, extraPrefixes: readonly string[] = []): boolean {
  if (report.driver.name === "nvidia-dpu") return true;
  const system = report.systems[0];
  if (system?.nicMode !== undefined || system?.baseMac !== undefined) return true;
  return report.chassis.some(
    (chassis) => chassis.id === "Card1" && isBluefieldPartNumber(chassis.partNumber, extraPrefixes),
  );
}

/** What the BMC manages; a report stored before reports said so is a host's (only hosts were explored then). */
export function endpointKindOf(report: ExplorationReport): ExplorationReport["endpointKind"] {
  return (report as Partial<ExplorationReport>).endpointKind ?? "host";
}

/** The serial a machine is known by: its first system's, else its first chassis' that has one (trimmed). */
export function reportSerial(report: ExplorationReport): string | undefined {
  const fromSystem = report.systems[0]?.serialNumber?.trim();
  if (fromSystem) return fromSystem;
  return report.chassis.map((chassis) => chassis.serialNumber?.trim()).find((serial) => !!serial);
}

/** Every serial the BMC shows for the machine (systems and chassis), to check the expected chassis serial. */
export function reportSerials(report: ExplorationReport): string[] {
  return [...report.systems.map((s) => s.serialNumber), ...report.chassis.map((c) => c.serialNumber)]
    .map((serial) => serial?.trim())
    .filter((serial): serial is string => !!serial);
}

/** Paths the BMC failed to answer while the report was made: the report may lack what they hold. */
export function unreadPaths(report: ExplorationReport): string[] {
  return [...new Set(report.diagnostics.filter((d) => d.unread).map((d) => d.path))];
}

/** The DPU's host-facing (pf0) MAC, normalised; undefined when its BMC does not tell it. */
export function dpuHostFacingMac(report: ExplorationReport): string | undefined {
  return normalizeMac(report.systems[0]?.baseMac);
}

/**
 * The host's own NICs with a MAC, as seen by its BMC: MAC (normalised) and UEFI device path. A VLAN interface
 * (`Virtual`) is not a NIC: it carries its parent's MAC and no device path of its own.
 */
export function hostNics(
  report: ExplorationReport,
): Array<{ mac: string; uefiDevicePath: string | undefined }> {
  return report.systems.flatMap((system) =>
    system.ethernetInterfaces.flatMap((nic) => {
      const mac = nic.interfaceType === "Virtual" ? undefined : normalizeMac(nic.mac);
      return mac ? [{ mac, uefiDevicePath: nic.uefiDevicePath }] : [];
    }),
  );
}
