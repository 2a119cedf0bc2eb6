import type { MachineInventory } from "@racksmith/core";
import { createExtensionPoint } from "../../service/extensions.js";
import type { BomMismatch, ValidationContext } from "../states.js";

/** What BOM validation found for a host, as its state shows it. */
export type BomVerdict =
  /** The host matches its SKU (`skuId`), or has none and the site lets such hosts through (`skuId` null). */
  | { kind: "passed"; skuId: string | null }
  | { kind: "waitingForSkuAssignment" }
  /** The host's SKU (assigned, or named by its expected machine) does not exist. */
  | { kind: "skuMissing"; skuId: string }
  | { kind: "skuVerificationFailed"; skuId: string; mismatches: BomMismatch[] };

/**
 * SKU validation as the lifecycle's `bomValidating` state uses it, added by the SKU feature when a plugin
 * registers SKU rules and the site enables it. Without it, hosts skip the state (validation as before).
 */
export interface BomValidation {
  /**
   * Finds the host's SKU (assigned; else its expected machine's, assigned from there; else a stored SKU it
   * matches, assigned as matched), verifies the inventory against it, and records the verdict and the host's
   * `SkuValidation` health.
   */
  evaluate(request: {
    hostId: string;
    context: ValidationContext;
    inventory: MachineInventory | null;
  }): Promise<BomVerdict>;
  /** When an operator last asked to verify the host again (`racksmith sku verify`, an assignment); null: never. */
  verifyRequestedAt(hostId: string): Promise<Date | null>;
}

/** The running service's BOM validation (at most one: a site loads one set of SKU rules). */
export const BOM_VALIDATION = createExtensionPoint<BomValidation>("racksmith.lifecycle.bomValidation");
