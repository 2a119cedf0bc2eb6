import type { NicMode } from "@racksmith/core";
import { UnknownNicModeError } from "../errors.js";
import type { BluefieldGeneration } from "./generation.js";

/** How the BMC spells each mode, in `Oem.Nvidia.Mode`, `Mode.Set` and the BF2 `NicMode` BIOS attribute. */
export const NIC_MODE_VALUE: Readonly<Record<NicMode, string>> = { dpu: "DpuMode", nic: "NicMode" };

/** Our mode for the BMC's value; anything else is an error, never a guess. */
export function nicModeFrom(value: unknown, source: string): NicMode {
  const mode = (Object.keys(NIC_MODE_VALUE) as NicMode[]).find((key) => NIC_MODE_VALUE[key] === value);
  if (!mode) throw new UnknownNicModeError(String(value), source);
  return mode;
}

/**
 * The mode from where this generation keeps it: BF3 in `Oem.Nvidia.Mode`, BF2 in the `NicMode` BIOS
 * attribute; each falls back to the other. Undefined when neither reports one.
 */
export function reportedNicMode(
  generation: BluefieldGeneration | undefined,
  oemMode: unknown,
  biosMode: unknown,
): NicMode | undefined {
  const sources: Array<[unknown, string]> = [
    [oemMode, "Oem.Nvidia.Mode"],
    [biosMode, "BIOS attribute NicMode"],
  ];
  if (generation === 2) sources.reverse();
  const found = sources.find(([value]) => value !== undefined && value !== null && value !== "");
  return found ? nicModeFrom(found[0], found[1]) : undefined;
}
