import { createHash } from "node:crypto";

/** The HCA model simulated hosts report (as `lspci` names it). */
export const SIMULATED_HCA_MODEL = "MT2910 Family [ConnectX-7]";
/** Ports each simulated host has. */
export const SIMULATED_IB_PORTS_PER_HOST = 2;

export interface SimulatedIbPort {
  device: string;
  port: number;
  /** 16 lowercase hex digits. */
  guid: string;
  rateGbps: number;
}

/**
 * A simulated host's InfiniBand ports: two ConnectX-7 ports with GUIDs derived from the host BMC's id, so the
 * host agent's inventory and a UFM simulator built for the same fleet agree without talking to each other.
 * The GUIDs use NVIDIA's OUI (`b8:3f:d2`) so they look like real ones.
 */
export function simulatedIbPorts(hostBmcId: string): SimulatedIbPort[] {
  const digest = createHash("sha256").update(`ib:${hostBmcId}`).digest("hex");
  return Array.from({ length: SIMULATED_IB_PORTS_PER_HOST }, (_, index) => ({
    device: SIMULATED_HCA_MODEL,
    port: index + 1,
    guid: `b83fd2${digest.slice(0, 9)}${index.toString(16)}`,
    rateGbps: 400,
  }));
}
