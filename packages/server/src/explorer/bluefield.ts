/**
 * Part-number prefixes of NVIDIA BlueField cards (DPUs and SuperNICs), as hosts report them on their PCIe
 * devices and network adapters. Collected from NVIDIA's published part numbers and the drivers' mockups;
 * operators add more with `siteExplorer.bluefieldPartNumbers`.
 */
export const BLUEFIELD_PART_NUMBER_PREFIXES: readonly string[] = [
  // BlueField-2: MBF2H516A, MBF2M516A, MBF2H536C… and the 900-9D2xx OEM numbers
  "MBF2",
  "900-9D206",
  "900-9D208",
  "900-9D218",
  "900-9D219",
  // BlueField-3 DPUs (B3210/B3220/B3240) and SuperNICs (B3140H/L)
  "900-9D3B4",
  "900-9D3B6",
  "900-9D3C6",
  "900-9D3D4",
  // Lenovo's FRU number of the BlueField-3 B3220
  "SN37B36732",
];

/** True when the part number names a BlueField card (case-insensitive prefix match, whitespace ignored). */
export function isBluefieldPartNumber(
  partNumber: string | undefined,
  extraPrefixes: readonly string[] = [],
): boolean {
  const part = partNumber?.trim().toUpperCase();
  if (!part) return false;
  return [...BLUEFIELD_PART_NUMBER_PREFIXES, ...extraPrefixes].some((prefix) =>
    part.startsWith(prefix.trim().toUpperCase()),
  );
}
