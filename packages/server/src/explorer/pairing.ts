import type { ExplorationReport } from "@racksmith/core";
import type { DpuMode } from "../inventory/contracts.js";
import { isBluefieldPartNumber } from "./bluefield.js";
import { dpuHostFacingMac, hostNics, reportSerial } from "./reportFacts.js";
import { compareUefiDevicePaths } from "./uefiDevicePath.js";

/** An explored DPU BMC, candidate for pairing. */
export interface DpuEndpoint {
  address: string;
  bmcMac: string;
  report: ExplorationReport;
}

/** An explored host BMC and what its expected machine says about its DPUs. */
export interface HostEndpoint {
  address: string;
  report: ExplorationReport;
  expected: { dpuMode: DpuMode; fallbackDpuSerials: readonly string[] } | undefined;
}

export interface PairedDpu {
  address: string;
  bmcMac: string;
  serial: string;
  /** The DPU's pf0 MAC, as the host sees it on one of its NICs. */
  hostFacingMac: string;
  primary: boolean;
}

export type PairingWaitCode = "dpu_not_explored" | "dpu_mode_unknown" | "dpu_without_host_mac";
export type PairingRejectCode = "no_dpu_found" | "dpu_in_nic_mode";

export type PairingResult =
  /** Complete: the DPUs to attach (none for a bare host or a host whose BlueFields are NICs). */
  | { status: "paired"; dpus: PairedDpu[]; nicModeSerials: string[] }
  /** Not yet: a DPU is not explored (or not far enough); the next run tries again. */
  | { status: "waiting"; code: PairingWaitCode; reason: string }
  /** Not without an operator: no DPU where one is expected, or only NIC-mode ones. */
  | { status: "rejected"; code: PairingRejectCode; reason: string };

export interface PairingOptions {
  /** Extra BlueField part-number prefixes (`siteExplorer.bluefieldPartNumbers`). */
  bluefieldPartNumbers?: readonly string[];
  /** Ingest a DPU-mode host without any DPU in DPU mode. */
  allowZeroDpuHosts?: boolean;
}

/** Explored DPUs by their trimmed serial (the first one wins if two BMCs claim the same serial). */
export function indexDpusBySerial(dpus: readonly DpuEndpoint[]): Map<string, DpuEndpoint> {
  const bySerial = new Map<string, DpuEndpoint>();
  for (const dpu of dpus) {
    const serial = reportSerial(dpu.report);
    if (serial && !bySerial.has(serial)) bySerial.set(serial, dpu);
  }
  return bySerial;
}

/** Serials of the BlueField cards a host shows: its PCIe devices, else its chassis' network adapters. */
export function hostBluefieldSerials(
  report: ExplorationReport,
  extraPrefixes: readonly string[] = [],
): string[] {
  const fromPcie = report.systems.flatMap((system) =>
    system.pcieDevices
      .filter((device) => isBluefieldPartNumber(device.partNumber, extraPrefixes))
      .map((device) => device.serialNumber),
  );
  const serials = trimmedUnique(fromPcie);
  if (serials.length > 0) return serials;
  return trimmedUnique(
    report.chassis.flatMap((chassis) =>
      chassis.networkAdapters
        .filter((adapter) => isBluefieldPartNumber(adapter.partNumber, extraPrefixes))
        .map((adapter) => adapter.serialNumber),
    ),
  );
}

/**
 * Which explored DPUs belong to a host (NICo's pairing): the host's BlueField serials matched against the
 * DPUs' own serials, the expected machine's fallback serials when that is incomplete, NIC-mode DPUs left
 * out, and the primary DPU chosen by the lowest UEFI device path of the host NIC carrying its pf0 MAC.
 */
export function pairHost(
  host: HostEndpoint,
  dpusBySerial: ReadonlyMap<string, DpuEndpoint>,
  options: PairingOptions = {},
): PairingResult {
  const mode = host.expected?.dpuMode ?? "dpu";
  if (mode === "no-dpu") return { status: "paired", dpus: [], nicModeSerials: [] };
  let serials = hostBluefieldSerials(host.report, options.bluefieldPartNumbers);
  if (mode === "nic") return { status: "paired", dpus: [], nicModeSerials: serials };

  const fallback = trimmedUnique(host.expected?.fallbackDpuSerials ?? []);
  const complete = serials.length > 0 && serials.every((serial) => dpusBySerial.has(serial));
  if (!complete && fallback.length > 0) serials = fallback;
  if (serials.length === 0) {
    return options.allowZeroDpuHosts
      ? { status: "paired", dpus: [], nicModeSerials: [] }
      : {
          status: "rejected",
          code: "no_dpu_found",
          reason:
            "no BlueField found on the host (PCIe devices, network adapters) and no fallback DPU serials; set dpuMode no-dpu to ingest it without one",
        };
  }
  const missing = serials.filter((serial) => !dpusBySerial.has(serial));
  if (missing.length > 0) {
    return {
      status: "waiting",
      code: "dpu_not_explored",
      reason: `DPU ${missing.join(", ")} not explored yet (no DPU BMC reports that serial)`,
    };
  }

  const attached: Array<Omit<PairedDpu, "primary">> = [];
  const nicModeSerials: string[] = [];
  for (const serial of serials) {
    const dpu = dpusBySerial.get(serial) as DpuEndpoint;
    const nicMode = dpu.report.systems[0]?.nicMode;
    if (nicMode === "nic") {
      nicModeSerials.push(serial);
      continue;
    }
    if (nicMode === undefined) {
      return {
        status: "waiting",
        code: "dpu_mode_unknown",
        reason: `DPU ${serial} (${dpu.address}) does not tell whether it is in DPU or NIC mode (is its driver loaded?)`,
      };
    }
    const hostFacingMac = dpuHostFacingMac(dpu.report);
    if (!hostFacingMac) {
      return {
        status: "waiting",
        code: "dpu_without_host_mac",
        reason: `DPU ${serial} (${dpu.address}) does not report its host-facing MAC yet`,
      };
    }
    attached.push({ address: dpu.address, bmcMac: dpu.bmcMac, serial, hostFacingMac });
  }
  if (attached.length === 0 && !options.allowZeroDpuHosts) {
    return {
      status: "rejected",
      code: "dpu_in_nic_mode",
      reason: `DPU ${nicModeSerials.join(", ")} is in NIC mode and is not attached; switch it to DPU mode, or set the expected machine's dpuMode to nic`,
    };
  }
  const primary = primaryDpu(host.report, attached);
  return {
    status: "paired",
    dpus: attached.map((dpu) => ({ ...dpu, primary: dpu.serial === primary })),
    nicModeSerials,
  };
}

/** The DPU on the host NIC with the lowest UEFI device path; ties (or no path) by lower-cased serial. */
function primaryDpu(
  report: ExplorationReport,
  dpus: ReadonlyArray<{ serial: string; hostFacingMac: string }>,
): string | undefined {
  const nics = hostNics(report);
  const pathOf = (mac: string) => nics.find((nic) => nic.mac === mac)?.uefiDevicePath;
  return [...dpus].sort(
    (a, b) =>
      compareUefiDevicePaths(pathOf(a.hostFacingMac), pathOf(b.hostFacingMac)) ||
      compareText(a.serial.toLowerCase(), b.serial.toLowerCase()),
  )[0]?.serial;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function trimmedUnique(values: ReadonlyArray<string | undefined>): string[] {
  return [...new Set(values.map((value) => value?.trim()).filter((value): value is string => !!value))];
}
