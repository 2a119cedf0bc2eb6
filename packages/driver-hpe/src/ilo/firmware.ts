import type { Manager } from "@racksmith/core/redfish";
import { type HpeManagerOem, hpeOem } from "./oem.js";

/** An iLO generation and firmware version, e.g. iLO 6 v1.55 → `{ generation: 6, major: 1, minor: 55 }`. */
export interface IloFirmware {
  generation: number;
  major: number;
  minor: number;
}

const FIRMWARE_VERSION = /iLO\s*(\d+)\s+v?(\d+)\.(\d+)/i;

/** Reads `FirmwareVersion` (`iLO 6 v1.55`), else the model and `Oem.Hpe.Firmware.Current`. */
export function iloFirmware(manager: Manager): IloFirmware | undefined {
  const match = FIRMWARE_VERSION.exec(manager.FirmwareVersion ?? "");
  if (match) return { generation: Number(match[1]), major: Number(match[2]), minor: Number(match[3]) };
  const generation = /iLO\s*(\d+)/i.exec(manager.Model ?? "")?.[1];
  const current = hpeOem<HpeManagerOem>(manager).Firmware?.Current;
  if (!generation || typeof current?.MajorVersion !== "number" || typeof current.MinorVersion !== "number") {
    return undefined;
  }
  return { generation: Number(generation), major: current.MajorVersion, minor: current.MinorVersion };
}

/** iLO 6 from 1.40 (and later generations) can turn off the host KCS interface, a lockdown step. */
export function hasKcsSetting(firmware: IloFirmware | undefined): boolean {
  if (!firmware) return false;
  if (firmware.generation !== 6) return firmware.generation > 6;
  return firmware.major > 1 || (firmware.major === 1 && firmware.minor >= 40);
}

export function describeFirmware(firmware: IloFirmware | undefined): string {
  return firmware
    ? `iLO ${firmware.generation} v${firmware.major}.${String(firmware.minor).padStart(2, "0")}`
    : "unknown iLO";
}
