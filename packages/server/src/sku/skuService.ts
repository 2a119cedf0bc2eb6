import type { GenerateSkuRequest, Logger, SkuDocument, SkuRules } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import type { Database, JsonObject } from "../db/index.js";
import {
  enqueueHost,
  hostLifecycleState,
  type ManagedHostState,
  managedHostStateLabel,
  requireHostMachine,
} from "../lifecycle/index.js";
import { matchingSku, storedDocument } from "./bomEvaluation.js";
import {
  InventoryNotReportedError,
  SkuNotFoundError,
  SkuRulesNotLoadedError,
  SkuVerifyNotAllowedError,
} from "./errors.js";
import { type HostSku, SkuStore, type StoredSku } from "./store.js";

/** A SKU as the APIs show it: its document and the hosts assigned to it. */
export interface SkuView {
  id: string;
  schemaVersion: number;
  description: string;
  createdAt: Date;
  hostIds: string[];
  document: JsonObject;
}

/** A host's SKU: the assignment, the last verdict and the state it is in. */
export interface HostSkuView extends HostSku {
  /** The host's lifecycle state (`bomValidating/skuVerificationFailed`, `ready`, …). */
  state: string;
}

export interface SkuServiceDeps {
  database: Database;
  engine: Pick<StateEngine, "enqueue">;
  logger: Logger;
  /** The SKU rules a plugin registered, if any. */
  rules: SkuRules | undefined;
  clock?: () => Date;
}

/** States in which an operator may ask for a host's SKU to be verified again (NICo: Ready, BOM waits). */
const VERIFIABLE_STATES: ReadonlySet<string> = new Set(["ready", "bomValidating"]);

/**
 * What `racksmith sku …` does: SKUs made and read through the plugin's rules, assigned to hosts, verified on
 * request. Changes that concern a host enqueue it: the lifecycle's BOM validation acts on them.
 */
export class SkuService {
  private readonly store: SkuStore;
  private readonly clock: () => Date;

  constructor(private readonly deps: SkuServiceDeps) {
    this.store = new SkuStore(deps.database.db);
    this.clock = deps.clock ?? (() => new Date());
  }

  async list(): Promise<SkuView[]> {
    const [skus, hosts] = await Promise.all([this.store.list(), this.store.hostsBySku()]);
    return skus.map((sku) => view(sku, hosts.get(sku.id) ?? []));
  }

  async get(id: string): Promise<SkuView> {
    const sku = await this.requireSku(id);
    return view(sku, (await this.store.hostsBySku([id])).get(id) ?? []);
  }

  /**
   * Stores a SKU read by the rules (every field checked), then assigns it to the Ready or waiting hosts
   * without a SKU that match it, and wakes the hosts waiting in BOM validation.
   */
  async create(body: unknown): Promise<SkuView> {
    const rules = this.rules();
    const sku = await this.store.insert(rules.parse(body), this.clock());
    const matched: string[] = [];
    for (const candidate of await this.store.unassignedCandidates()) {
      if (!matchingSku(rules, [sku], candidate.inventory)) continue;
      await this.store.assign(candidate.hostId, sku.id, "matched", this.clock(), { verify: false });
      matched.push(candidate.hostId);
    }
    const waiting = await this.store.hostsInBomWaits();
    await this.enqueue([...new Set([...matched, ...waiting])]);
    this.deps.logger.info({ skuId: sku.id, matched: matched.length }, "SKU created");
    return view(sku, matched);
  }

  async delete(id: string): Promise<SkuView> {
    const shown = await this.get(id);
    if (!(await this.store.delete(id))) throw new SkuNotFoundError(id);
    return shown;
  }

  /** The SKU a host's inventory describes; nothing is stored. */
  async generate(hostId: string, request: GenerateSkuRequest = {}): Promise<SkuDocument> {
    const rules = this.rules();
    await this.requireHost(hostId);
    const inventory = await this.store.inventory(hostId);
    if (!inventory) throw new InventoryNotReportedError(hostId);
    return rules.generate(inventory, request);
  }

  /** Assigns a SKU to hosts (replacing theirs) and asks for each to be verified against it. */
  async assign(skuId: string, hostIds: readonly string[]): Promise<SkuView> {
    this.rules();
    await this.requireSku(skuId);
    for (const hostId of hostIds) await this.requireHost(hostId);
    const now = this.clock();
    for (const hostId of hostIds) await this.store.assign(hostId, skuId, "operator", now, { verify: true });
    await this.enqueue(hostIds);
    return this.get(skuId);
  }

  /** Removes a host's SKU; BOM validation then looks for one again (or lets the host on, if the site allows). */
  async unassign(hostId: string): Promise<HostSkuView> {
    await this.requireHost(hostId);
    await this.store.assign(hostId, null, null, this.clock(), { verify: true });
    await this.enqueue([hostId]);
    return this.hostSku(hostId);
  }

  /** Asks for a Ready or BOM-validating host to be verified again, from a fresh inventory. */
  async verify(hostId: string): Promise<HostSkuView> {
    this.rules();
    await this.requireHost(hostId);
    const state = await this.stateOf(hostId);
    if (!state || !VERIFIABLE_STATES.has(state.state)) {
      throw new SkuVerifyNotAllowedError(
        hostId,
        state ? managedHostStateLabel(state) : "not in the lifecycle yet",
      );
    }
    await this.store.requestVerify(hostId, this.clock());
    await this.enqueue([hostId]);
    return this.hostSku(hostId);
  }

  async hostSku(hostId: string): Promise<HostSkuView> {
    await this.requireHost(hostId);
    const [row, state] = await Promise.all([this.store.hostSku(hostId), this.stateOf(hostId)]);
    return { ...(row ?? noSku(hostId)), state: state ? managedHostStateLabel(state) : "none" };
  }

  private rules(): SkuRules {
    if (!this.deps.rules) throw new SkuRulesNotLoadedError();
    return this.deps.rules;
  }

  private async requireSku(id: string): Promise<StoredSku> {
    const sku = await this.store.get(id);
    if (!sku) throw new SkuNotFoundError(id);
    return sku;
  }

  private async requireHost(hostId: string): Promise<void> {
    await requireHostMachine(this.deps.database.db, hostId, "SKUs describe hosts");
  }

  private stateOf(hostId: string): Promise<ManagedHostState | undefined> {
    return hostLifecycleState(this.deps.database.db, hostId);
  }

  private async enqueue(hostIds: readonly string[]): Promise<void> {
    for (const hostId of hostIds) await enqueueHost(this.deps.engine, hostId, this.deps.logger);
  }
}

/** A host the SKU tables have no row for. */
function noSku(hostId: string): HostSku {
  return {
    hostId,
    skuId: null,
    assignedBy: null,
    assignedAt: null,
    verifyRequestedAt: null,
    verdict: null,
    verifiedAt: null,
  };
}

function view(sku: StoredSku, hostIds: string[]): SkuView {
  return {
    id: sku.id,
    schemaVersion: sku.schemaVersion,
    description: sku.description,
    createdAt: sku.createdAt,
    hostIds,
    document: storedDocument(sku) as unknown as JsonObject,
  };
}
