/**
 * The numbers of a UEFI device path's PCI nodes, in order: `PciRoot(0x6)/Pci(0x1,0x0)/Pci(0x0,0x1)` →
 * `[6, 1, 0, 0, 1]`. Undefined when the path has no PCI node (or none is given), so such NICs sort last.
 */
export function parseUefiDevicePath(path: string | undefined): number[] | undefined {
  if (!path) return undefined;
  const numbers: number[] = [];
  for (const node of path.matchAll(/(PciRoot|Pci)\(([^)]*)\)/gi)) {
    for (const part of (node[2] ?? "").split(",")) {
      const value = Number.parseInt(part.trim(), part.trim().toLowerCase().startsWith("0x") ? 16 : 10);
      if (!Number.isFinite(value)) return undefined;
      numbers.push(value);
    }
  }
  return numbers.length > 0 ? numbers : undefined;
}

/** Numeric, node by node (so `Pci(0x10,…)` sorts after `Pci(0x2,…)`); a path without PCI nodes sorts last. */
export function compareUefiDevicePaths(a: string | undefined, b: string | undefined): number {
  const left = parseUefiDevicePath(a);
  const right = parseUefiDevicePath(b);
  if (!left || !right) return left ? -1 : right ? 1 : 0;
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
