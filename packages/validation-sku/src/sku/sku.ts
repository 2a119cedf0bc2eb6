/**
 * The SKU schema version this package writes. A SKU keeps the version it was created with, and is always
 * verified by that version's rules, so a newer package never changes how an existing SKU compares.
 */
export const SKU_SCHEMA_VERSION = 1;

/** A named description of a host's hardware (NICo's SKU): what every host assigned to it must have. */
export interface Sku {
  /** The SKU's name, by convention `<vendor>.<model>.<node type>.<index>`, e.g. `dell.r750.gpu.1`. */
  id: string;
  schemaVersion: number;
  description: string;
  chassis: { vendor: string; model: string };
  cpus: SkuCpu[];
  /** Installed memory in bytes, as the host agent reports it. */
  memoryBytes: number;
  gpus: SkuCount[];
  /** Network adapters (DPUs included) by model. */
  nics: SkuCount[];
  /** InfiniBand ports by HCA model and rate. */
  ibPorts: SkuIbPort[];
  disks: SkuDisk[];
}

export interface SkuCount {
  model: string;
  count: number;
}

export interface SkuCpu extends SkuCount {
  threads: number;
}

export interface SkuIbPort {
  device: string;
  rateGbps: number;
  count: number;
}

export interface SkuDisk extends SkuCount {
  sizeBytes: number;
}

/** The component kinds a SKU lists, in the order they are compared and shown. */
export const SKU_COMPONENTS = ["chassis", "cpu", "memory", "gpu", "nic", "ibPort", "disk"] as const;
export type SkuComponent = (typeof SKU_COMPONENTS)[number];
