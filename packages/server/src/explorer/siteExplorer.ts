import type { ExplorationReport, Logger } from "@racksmith/core";
import { InvalidArgumentError, normalizeMac } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import { excerpt } from "../api/index.js";
import type { Database } from "../db/index.js";
import type { BmcCredentials, ExpectedMachine, InventoryReader } from "../inventory/contracts.js";
import { assertBmcAddress } from "./bmcAddress.js";
import { forEachConcurrently } from "./concurrency.js";
import type { ResolvedSiteExplorerConfig } from "./configSchema.js";
import type { BmcExplorer, EndpointLogins } from "./endpointExplorer.js";
import { EndpointStore, type ManagedHostVerdict, type StoredReport } from "./endpointStore.js";
import { EndpointNotFoundError, MachineNotFoundError } from "./errors.js";
import { messageOf, toExplorationFailure } from "./explorationFailure.js";
import type { EndpointFinding } from "./findings.js";
import { decideIngestion, INGESTION_STATUSES, type IngestionDecision } from "./ingestion.js";
import { NO_AUTH_FAILURES } from "./lockout.js";
import { machineIdFor } from "./machineIds.js";
import { machineLifecycle } from "./machineLifecycle.js";
import { MANAGED_HOST_OBJECT_TYPE, MachineStore, type NewMachine } from "./machineStore.js";
import { MANAGED_HOST_INITIAL_STATE } from "./managedHostMachine.js";
import type { ExplorerMetrics } from "./metrics.js";
import {
  type DpuEndpoint,
  hostBluefieldSerials,
  indexDpusBySerial,
  type PairedDpu,
  pairHost,
} from "./pairing.js";
import { endpointsToExplore } from "./priority.js";
import { isDpuReport, reportSerial } from "./reportFacts.js";
import type {
  EndpointDetail,
  EndpointSummary,
  ExploreNowResult,
  MachineDetail,
  MachineView,
  ManagedHostView,
} from "./views.js";

export interface SiteExplorerDeps {
  database: Database;
  inventory: InventoryReader;
  explorer: BmcExplorer;
  engine: Pick<StateEngine, "createObject" | "getObjectState">;
  config: ResolvedSiteExplorerConfig;
  metrics: ExplorerMetrics;
  logger: Logger;
  clock?: () => Date;
}

/** An explore-now request beyond the address. */
export interface ExploreNowRequest {
  /** BMC MAC of an address the inventory does not know (names it in the report; never selects credentials). */
  mac?: string | undefined;
  /** The caller's own login for this BMC; the only credentials sent to an address the inventory does not know. */
  credentials?: BmcCredentials | undefined;
}

/** What one run did. */
export interface IterationSummary {
  explored: number;
  failed: number;
  ingested: number;
  waiting: number;
  rejected: number;
  /** Endpoints never explored that this run left for the next (over budget or past the deadline). */
  neverExploredLeft: number;
}

/**
 * The site explorer: each run explores the endpoints due by priority (within budget and concurrency), then
 * pairs hosts with their DPUs and ingests the complete ones. Also serves the APIs' reads and requests.
 */
export class SiteExplorer {
  readonly endpoints: EndpointStore;
  readonly machines: MachineStore;
  private readonly clock: () => Date;

  constructor(private readonly deps: SiteExplorerDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.endpoints = new EndpointStore(deps.database.db, this.clock);
    this.machines = new MachineStore(deps.database.db);
  }

  /** One run; stops starting explorations after `deadline` (epoch ms) so a run ends within its lock. */
  async runIteration(options: { deadline?: number } = {}): Promise<IterationSummary> {
    const stopTimer = this.deps.metrics.iterationSeconds.startTimer();
    const { inventory, config } = this.deps;
    const [bmcEndpoints, expected] = await Promise.all([
      inventory.bmcEndpoints(),
      inventory.expectedMachines(),
    ]);
    const expectedByMac = new Map(expected.map((machine) => [machine.bmcMac, machine]));
    await this.endpoints.syncEndpoints(bmcEndpoints);
    const facts = await this.endpoints.schedulingFacts();
    const due = endpointsToExplore(facts, {
      budget: config.budget,
      now: this.clock(),
      freshForMs: config.intervalMs,
    });
    let explored = 0;
    let failed = 0;
    const exploredAddresses = new Set<string>();
    await forEachConcurrently(due, config.concurrency, async (endpoint) => {
      if (options.deadline !== undefined && Date.now() >= options.deadline) return;
      const mac = endpoint.bmcMac ?? undefined;
      const exploration = await this.deps.explorer.explore({
        address: endpoint.address,
        mac,
        pinnedDriver: (mac && expectedByMac.get(mac)?.driver) || undefined,
        authFailures: endpoint.authFailures,
        mayRotate: true,
      });
      this.observe(exploration);
      explored++;
      exploredAddresses.add(endpoint.address);
      if (exploration.error) failed++;
      try {
        await this.endpoints.saveExploration(endpoint.address, exploration);
      } catch (error) {
        this.deps.logger.error(
          { bmc: endpoint.address, err: messageOf(error) },
          "could not store an exploration",
        );
      }
    });
    const verdicts = await this.pairAndIngest(expectedByMac);
    stopTimer();
    return {
      explored,
      failed,
      ingested: verdicts.filter((v) => v.ingestedNow).length,
      waiting: verdicts.filter((v) => v.status === "waiting").length,
      rejected: verdicts.filter((v) => v.status === "rejected").length,
      neverExploredLeft: facts.filter((f) => f.lastExploredAt === null && !exploredAddresses.has(f.address))
        .length,
    };
  }

  /**
   * Explores one address now without storing the report (NICo's `Explore`); nothing on the BMC changes.
   * Stored credentials are used only for an address the inventory knows, with the MAC it knows there; any
   * other address is explored with the caller's `credentials` or none.
   */
  async exploreNow(address: string, request: ExploreNowRequest = {}): Promise<ExploreNowResult> {
    const known = (await this.deps.inventory.bmcEndpoints()).find((endpoint) => endpoint.address === address);
    // The inventory's own addresses are what the exploration loop explores; any other must be a plain host.
    if (!known) assertBmcAddress(address, this.deps.config.bmc.scheme);
    const givenMac = request.mac ? normalizeMac(request.mac) : undefined;
    if (request.mac && !givenMac) {
      throw new InvalidArgumentError(`mac ${JSON.stringify(excerpt(request.mac))} is not a MAC address`, {
        details: { field: "mac" },
      });
    }
    if (known && givenMac && givenMac !== known.mac) {
      throw new InvalidArgumentError(
        "mac does not match the BMC the inventory knows at this address; leave it out for a known address",
        { details: { field: "mac" } },
      );
    }
    const bmcMac = known?.mac ?? givenMac;
    const expected = bmcMac ? await this.deps.inventory.expectedMachine(bmcMac) : undefined;
    const stored = await this.endpoints.authFailures(address);
    const logins: EndpointLogins = request.credentials
      ? { kind: "given", credentials: request.credentials }
      : known
        ? { kind: "stored" }
        : { kind: "none" };
    const exploration = await this.deps.explorer.explore({
      address,
      mac: bmcMac,
      pinnedDriver: expected?.driver ?? undefined,
      authFailures: stored ?? NO_AUTH_FAILURES,
      mayRotate: false,
      logins,
    });
    // Refused logins count toward the BMC's lockout even when the report is not kept.
    if (stored) await this.endpoints.saveAuthFailures(address, exploration.authFailures);
    return {
      address,
      report: exploration.report ?? null,
      error: exploration.error ?? null,
      latencyMs: exploration.latencyMs,
    };
  }

  /** The endpoint goes first in the next run (and that result is stored). */
  async requestReExplore(address: string): Promise<void> {
    const endpoint = (await this.deps.inventory.bmcEndpoints()).find((e) => e.address === address);
    if (!endpoint) throw new EndpointNotFoundError(address);
    await this.endpoints.requestExploration(endpoint);
  }

  listEndpoints(): Promise<EndpointSummary[]> {
    return this.endpoints.listEndpoints();
  }

  async getEndpoint(address: string): Promise<EndpointDetail> {
    const found = await this.endpoints.getEndpoint(address);
    if (!found) throw new EndpointNotFoundError(address);
    return found;
  }

  listManagedHosts(): Promise<ManagedHostView[]> {
    return this.endpoints.listManagedHosts();
  }

  listMachines(): Promise<MachineView[]> {
    return this.machines.list();
  }

  async getMachine(id: string): Promise<MachineDetail> {
    const found = await this.machines.get(id);
    if (!found) throw new MachineNotFoundError(id);
    const { view, row } = found;
    const object = await this.deps.engine.getObjectState(MANAGED_HOST_OBJECT_TYPE, row.host_id ?? row.id);
    return {
      ...view,
      vendor: row.vendor,
      model: row.model,
      hostFacingMac: row.host_facing_mac,
      createdAt: row.created_at.toISOString(),
      ...machineLifecycle(object),
    };
  }

  private observe(exploration: {
    error?: { code: string } | undefined;
    latencyMs: number;
    rotated: boolean;
  }) {
    const { metrics } = this.deps;
    metrics.explored.inc({ result: exploration.error ? "error" : "ok" });
    if (exploration.error) metrics.errors.inc({ code: exploration.error.code });
    if (exploration.rotated) metrics.rotations.inc();
    metrics.explorationSeconds.observe(exploration.latencyMs / 1000);
  }

  /** Pairs every explored host with its DPUs, acts on each ingestion decision and stores the verdicts. */
  private async pairAndIngest(
    expectedByMac: ReadonlyMap<string, ExpectedMachine>,
  ): Promise<Array<ManagedHostVerdict & { ingestedNow: boolean }>> {
    const { config } = this.deps;
    const ingested = await this.machines.ingestedFacts();
    const { hosts, dpus } = this.splitReports(await this.endpoints.unmanagedReports());
    // A managed DPU a waiting host shows still pairs, so that host is rejected (attached elsewhere), not kept waiting.
    const claimed = new Set(
      hosts.flatMap((host) => [
        ...hostBluefieldSerials(host.report, config.bluefieldPartNumbers),
        ...((host.bmcMac && expectedByMac.get(host.bmcMac)?.fallbackDpuSerials) || []),
      ]),
    );
    const attached = [...claimed].filter((serial) => ingested.dpuSerials.has(serial));
    if (attached.length > 0) {
      const managed = this.splitReports(await this.endpoints.managedDpuReports(attached)).dpus;
      dpus.push(...managed);
      dpus.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    }
    const dpusBySerial = indexDpusBySerial(dpus);
    const dpuReports = new Map(dpus.map((dpu) => [dpu.address, dpu.report]));
    const verdicts: Array<ManagedHostVerdict & { ingestedNow: boolean }> = [];
    const findings = new Map<string, EndpointFinding[]>();
    let created = 0;
    for (const host of hosts) {
      const expected = host.bmcMac ? expectedByMac.get(host.bmcMac) : undefined;
      const pairing = pairHost({ address: host.address, report: host.report, expected }, dpusBySerial, {
        bluefieldPartNumbers: config.bluefieldPartNumbers,
        allowZeroDpuHosts: config.allowZeroDpuHosts,
      });
      const existingId = host.bmcMac ? ingested.hostIdsByMac.get(host.bmcMac) : undefined;
      const decision = decideIngestion({
        report: host.report,
        expected,
        ingested: existingId !== undefined,
        pairing,
        attachedDpuSerials: ingested.dpuSerials,
        lastPowerOnAt: host.lastPowerOnAt,
        powerOn: config.powerOn,
        now: this.clock(),
      });
      const base = {
        hostAddress: host.address,
        serial: reportSerial(host.report) ?? null,
        machineId: existingId ?? null,
        dpus: pairing.status === "paired" ? pairing.dpus.map(toManagedHostDpu) : [],
        ingestedNow: false,
      };
      if (decision.action === "reject" && decision.finding) findings.set(host.address, [decision.finding]);
      if (decision.action === "ingest" && created >= config.maxIngestionsPerRun) {
        verdicts.push({
          ...base,
          status: "waiting",
          code: "ingestion_limit",
          reason: `at most ${config.maxIngestionsPerRun} new hosts per run (siteExplorer.maxIngestionsPerRun); next run`,
        });
        continue;
      }
      const verdict = await this.act(host, expected, decision, base, dpuReports);
      if (verdict.ingestedNow) {
        created++;
        for (const dpu of verdict.dpus) ingested.dpuSerials.add(dpu.serial);
      }
      verdicts.push(verdict);
    }
    await this.endpoints.saveVerdicts(verdicts, findings);
    this.recordVerdictMetrics(verdicts, ingested.hostIdsByMac.size);
    return verdicts;
  }

  /** DPU reports (with a BMC MAC) apart from every other report, which is a host's. */
  private splitReports(reports: readonly StoredReport[]): { hosts: StoredReport[]; dpus: DpuEndpoint[] } {
    const dpus: DpuEndpoint[] = [];
    const hosts: StoredReport[] = [];
    for (const stored of reports) {
      if (isDpuReport(stored.report, this.deps.config.bluefieldPartNumbers)) {
        if (stored.bmcMac)
          dpus.push({ address: stored.address, bmcMac: stored.bmcMac, report: stored.report });
      } else {
        hosts.push(stored);
      }
    }
    return { hosts, dpus };
  }

  private async act(
    host: StoredReport,
    expected: ExpectedMachine | undefined,
    decision: IngestionDecision,
    base: Omit<ManagedHostVerdict, "status" | "code" | "reason"> & { ingestedNow: boolean },
    dpuReports: ReadonlyMap<string, ExplorationReport>,
  ): Promise<ManagedHostVerdict & { ingestedNow: boolean }> {
    switch (decision.action) {
      case "none":
        return { ...base, status: decision.status, code: null, reason: decision.reason };
      case "reject":
      case "wait":
        return { ...base, status: decision.status, code: decision.code, reason: decision.reason };
      case "power-on":
        return { ...base, status: "waiting", ...(await this.powerOn(host, expected)) };
      case "ingest": {
        const outcome = await this.ingest(host, decision.serial, decision.dpus, dpuReports);
        return outcome.ok
          ? {
              ...base,
              status: "ingested",
              code: null,
              reason: null,
              machineId: outcome.machineId,
              ingestedNow: true,
            }
          : { ...base, status: "waiting", code: "ingestion_failed", reason: outcome.reason };
      }
    }
  }

  private async powerOn(
    host: StoredReport,
    expected: ExpectedMachine | undefined,
  ): Promise<{ code: string; reason: string }> {
    const now = this.clock();
    const authFailures = (await this.endpoints.authFailures(host.address)) ?? NO_AUTH_FAILURES;
    try {
      const after = await this.deps.explorer.powerOn({
        address: host.address,
        mac: host.bmcMac ?? undefined,
        pinnedDriver: expected?.driver ?? undefined,
        authFailures,
      });
      await this.endpoints.saveAuthFailures(host.address, after);
      await this.endpoints.markPoweredOn(host.address, now);
      this.deps.logger.info({ bmc: host.address }, "powered on an expected host for ingestion");
      return { code: "powering_on", reason: "host was off: powered it on; re-exploring it next run" };
    } catch (error) {
      // Rate-limited like a success: a host that cannot be powered on is not hammered every run.
      await this.endpoints.markPoweredOn(host.address, now);
      const failure = toExplorationFailure(error);
      return {
        code: "power_on_failed",
        reason: `host is off and could not be powered on (${failure.code}): ${failure.message}`,
      };
    }
  }

  /** Creates the host, its DPUs and the host's lifecycle object in one transaction. */
  private async ingest(
    host: StoredReport,
    serial: string,
    dpus: readonly PairedDpu[],
    dpuReports: ReadonlyMap<string, ExplorationReport>,
  ): Promise<{ ok: true; machineId: string } | { ok: false; reason: string }> {
    const hostId = machineIdFor("host", serial);
    const machines: NewMachine[] = [
      {
        id: hostId,
        kind: "host",
        serial,
        bmcAddress: host.address,
        bmcMac: host.bmcMac ?? "",
        hostId: null,
        hostFacingMac: null,
        primaryDpu: false,
        ...vendorAndModel(host.report),
      },
      ...dpus.map((dpu) => ({
        id: machineIdFor("dpu", dpu.serial),
        kind: "dpu" as const,
        serial: dpu.serial,
        bmcAddress: dpu.address,
        bmcMac: dpu.bmcMac,
        hostId,
        hostFacingMac: dpu.hostFacingMac,
        primaryDpu: dpu.primary,
        ...vendorAndModel(dpuReports.get(dpu.address)),
      })),
    ];
    try {
      const inserted = await this.deps.database.db.transaction().execute(async (trx) => {
        if (!(await this.machines.insertManagedHost(trx, machines, this.clock()))) return false;
        await this.deps.engine.createObject(MANAGED_HOST_OBJECT_TYPE, hostId, MANAGED_HOST_INITIAL_STATE, {
          trx,
        });
        return true;
      });
      if (!inserted) return { ok: false, reason: "the host or one of its DPUs is already a managed machine" };
    } catch (error) {
      this.deps.logger.error({ bmc: host.address, err: messageOf(error) }, "ingestion failed");
      return { ok: false, reason: `ingestion failed: ${messageOf(error)}` };
    }
    this.deps.metrics.ingested.inc();
    this.deps.logger.info(
      { bmc: host.address, machineId: hostId, dpus: dpus.length },
      "managed host ingested",
    );
    return { ok: true, machineId: hostId };
  }

  /** `managedBefore`: hosts managed before this run, whose verdicts the run kept. */
  private recordVerdictMetrics(verdicts: readonly ManagedHostVerdict[], managedBefore: number): void {
    const { hostsByStatus, pairingWaits } = this.deps.metrics;
    hostsByStatus.reset();
    pairingWaits.reset();
    for (const status of INGESTION_STATUSES) {
      const kept = status === "ingested" ? managedBefore : 0;
      hostsByStatus.set({ status }, kept + verdicts.filter((v) => v.status === status).length);
    }
    for (const verdict of verdicts) {
      if ((verdict.status === "waiting" || verdict.status === "rejected") && verdict.code) {
        pairingWaits.inc({ code: verdict.code });
      }
    }
  }
}

function vendorAndModel(report: ExplorationReport | undefined): {
  vendor: string | null;
  model: string | null;
} {
  const system = report?.systems[0];
  return { vendor: report?.vendor ?? system?.manufacturer ?? null, model: system?.model ?? null };
}

function toManagedHostDpu(dpu: PairedDpu) {
  return { ...dpu, machineId: machineIdFor("dpu", dpu.serial) };
}
