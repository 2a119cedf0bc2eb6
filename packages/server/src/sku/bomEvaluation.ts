import type { Logger, MachineInventory, SkuDocument, SkuMismatch, SkuRules } from "@racksmith/core";
import type { HealthReport } from "@racksmith/core/health";
import type { BomValidation, BomVerdict } from "../lifecycle/index.js";
import type { ResolvedSkuValidationConfig } from "./config.js";
import { SkuExistsError } from "./errors.js";
import { skuHealthReport } from "./skuHealth.js";
import type { SkuStore, StoredSku } from "./store.js";

export interface BomEvaluationDeps {
  store: SkuStore;
  rules: SkuRules;
  config: ResolvedSkuValidationConfig;
  recordReport: (hostId: string, report: HealthReport) => Promise<void>;
  clock: () => Date;
  logger: Logger;
}

/**
 * The lifecycle's BOM validation over the SKU store: the host's SKU is the one assigned, else the one its
 * expected machine names (assigned from there), else the first stored SKU it matches (assigned as matched).
 * Every verdict is recorded with the host and as its `sku-validation` health report.
 */
export function createBomValidation(deps: BomEvaluationDeps): BomValidation {
  return {
    async evaluate({ hostId, inventory }) {
      const now = deps.clock();
      const verdict = await decide(deps, hostId, inventory, now);
      await deps.store.recordVerdict(hostId, verdict, now);
      await deps.recordReport(hostId, skuHealthReport(verdict, now));
      return verdict;
    },
    async verifyRequestedAt(hostId) {
      return (await deps.store.hostSku(hostId))?.verifyRequestedAt ?? null;
    },
  };
}

async function decide(
  deps: BomEvaluationDeps,
  hostId: string,
  inventory: MachineInventory | null,
  now: Date,
): Promise<BomVerdict> {
  const { store, rules, config } = deps;
  const assigned = (await store.hostSku(hostId))?.skuId ?? null;
  if (assigned !== null) {
    // The foreign key keeps an assigned SKU; a row gone anyway (deleted by hand) counts as missing.
    const sku = await store.get(assigned);
    return sku ? verdictOf(rules, sku, inventory) : { kind: "skuMissing", skuId: assigned };
  }
  const expected = await store.expectedSkuId(hostId);
  if (expected !== null) {
    let sku = await store.get(expected);
    if (!sku && config.autoGenerateMissing && inventory)
      sku = await generateMissing(deps, expected, hostId, inventory, now);
    if (!sku) return { kind: "skuMissing", skuId: expected };
    await store.assign(hostId, expected, "expectedMachine", now, { verify: false });
    return verdictOf(rules, sku, inventory);
  }
  const match = inventory ? matchingSku(rules, await store.list(), inventory) : undefined;
  if (match) {
    await store.assign(hostId, match.id, "matched", now, { verify: false });
    return { kind: "passed", skuId: match.id };
  }
  return config.ignoreUnassignedMachines
    ? { kind: "passed", skuId: null }
    : { kind: "waitingForSkuAssignment" };
}

/** The first SKU (by id) a host matches. */
export function matchingSku(
  rules: SkuRules,
  skus: readonly StoredSku[],
  inventory: MachineInventory,
): StoredSku | undefined {
  return skus.find((sku) => compare(rules, sku, inventory).length === 0);
}

function verdictOf(rules: SkuRules, sku: StoredSku, inventory: MachineInventory | null): BomVerdict {
  const mismatches: SkuMismatch[] = inventory
    ? compare(rules, sku, inventory)
    : [{ component: "inventory", message: "the host agent has not reported the host's inventory" }];
  return mismatches.length
    ? { kind: "skuVerificationFailed", skuId: sku.id, mismatches }
    : { kind: "passed", skuId: sku.id };
}

/** The rules' differences; a stored SKU the rules can no longer read is one difference, saying why. */
function compare(rules: SkuRules, sku: StoredSku, inventory: MachineInventory): SkuMismatch[] {
  try {
    return rules.verify(storedDocument(sku), inventory);
  } catch (error) {
    return [{ component: "sku", message: `SKU ${sku.id} cannot be compared: ${(error as Error).message}` }];
  }
}

export function storedDocument(sku: StoredSku): SkuDocument {
  return { ...sku.document, id: sku.id, schemaVersion: sku.schemaVersion, description: sku.description };
}

/** `autoGenerateMissing`: the SKU an expected machine names, made from this host (another may win the race). */
async function generateMissing(
  deps: BomEvaluationDeps,
  skuId: string,
  hostId: string,
  inventory: MachineInventory,
  now: Date,
): Promise<StoredSku | undefined> {
  const generated = deps.rules.generate(inventory, {
    id: skuId,
    description: `generated from host ${hostId}`,
  });
  try {
    const sku = await deps.store.insert(generated, now);
    deps.logger.info({ skuId, hostId }, "generated a missing SKU from a host's inventory");
    return sku;
  } catch (error) {
    if (error instanceof SkuExistsError) return deps.store.get(skuId);
    throw error;
  }
}
