import type { MachineInventory } from "./machineInventory.js";

/**
 * A SKU as the service stores it: a name, the schema version of the rules that compare it, and whatever
 * component fields the plugin's rules define (kept as JSON, read back only through the same rules).
 */
export interface SkuDocument {
  readonly id: string;
  readonly schemaVersion: number;
  readonly description: string;
}

/** One way a host differs from its SKU, e.g. `{ component: "gpu", message: "gpu H100: expected 4, found 3" }`. */
export interface SkuMismatch {
  /** The component kind (`chassis`, `cpu`, `memory`, `gpu`, `nic`, `ibPort`, `disk`, …). */
  component: string;
  message: string;
}

export interface GenerateSkuRequest {
  /** Default: the rules' naming convention (NICo's `<vendor>.<model>.<node type>.<index>`). */
  id?: string;
  description?: string;
}

/**
 * The rules of SKU (bill-of-materials) validation, registered by a plugin: how a SKU is read, generated from
 * a host's inventory and compared with one. The service stores the SKUs and their assignments and runs the
 * lifecycle's `bomValidating` state with them; a site loads at most one set of rules.
 */
export interface SkuRules {
  /** Unique, kebab-case. */
  readonly name: string;
  readonly description?: string;
  /** A SKU from a file or request, every field checked; throws InvalidArgumentError naming the bad field. */
  parse(value: unknown): SkuDocument;
  /** The SKU a host's inventory describes (what `racksmith sku generate` shows). */
  generate(inventory: MachineInventory, request?: GenerateSkuRequest): SkuDocument;
  /** Every difference between a host and a SKU this plugin parsed; empty when the host matches. */
  verify(sku: SkuDocument, inventory: MachineInventory): SkuMismatch[];
}
