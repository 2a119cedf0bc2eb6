import { createHash } from "node:crypto";

export type MachineKind = "host" | "dpu";

/**
 * The machine id of a host or DPU, derived from its (trimmed) serial only, so every replica and every run
 * derives the same id: `host-` or `dpu-` and 24 hex digits of SHA-256(`host:<serial>`).
 */
export function machineIdFor(kind: MachineKind, serial: string): string {
  const digest = createHash("sha256").update(`${kind}:${serial.trim()}`).digest("hex");
  return `${kind}-${digest.slice(0, 24)}`;
}
