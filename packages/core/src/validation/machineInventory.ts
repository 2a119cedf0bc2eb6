/** Types the agents report and the validation runners see (no database types: the SDK exports them). */

export interface ValidationTestResult {
  name: string;
  passed: boolean;
  message: string;
  durationMs: number;
}

export interface ValidationResult {
  context: string;
  passed: boolean;
  results: ValidationTestResult[];
  /** Who ran it: a runner's name, or `host-agent`. */
  runBy: string;
}

/** The inventory the host agent (or DPU agent) reported with DiscoverMachine. */
export interface MachineInventory {
  serial: string;
  vendor: string;
  model: string;
  cpus: Array<{ model: string; cores: number; threads: number }>;
  memoryBytes: number;
  disks: Array<{ name: string; model: string; serial: string; sizeBytes: number }>;
  nics: Array<{ name: string; mac: string; model: string; pciAddress: string }>;
  gpus: Array<{
    model: string;
    serial: string;
    pciAddress: string;
    platform: { chassisSerial: string; slot: number; tray: number } | null;
  }>;
  ibPorts: Array<{ device: string; port: number; guid: string; rateGbps: number }>;
}
