import type { Logger } from "@racksmith/core";
import { tryAcquireWorkLock } from "@racksmith/core/engine";
import type { HealthReport } from "@racksmith/core/health";
import type { IbGuid, InfiniBandFabric, InfiniBandPort } from "@racksmith/core/infiniband";
import {
  checkInfiniBandFabricSecurity,
  DEFAULT_PKEY,
  type Pkey,
  sameInfiniBandQos,
} from "@racksmith/core/infiniband";
import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../../../db/index.js";
import { desiredPkeys, type HostInstance, hostGuids, trackedGuids } from "../hosts/index.js";
import { liveInstances, readPartitions } from "../partitions/index.js";
import { diffHostPkeys, type GuidPkey, groupByPkey } from "./diff.js";
import { alertKeys, hostIbReport } from "./hostReport.js";
import type { IbMonitorIterationFigures, IbMonitorMetrics } from "./metrics.js";
import type { HostIbObservation, IbFabricHealth } from "./observation.js";
import { hostsWithIbPorts, readHostObservations, writeFabricHealth, writeHostObservation } from "./store.js";

const RERUN_AFTER_CHANGE_MS = 1_000;
const POKE_DELAY_MS = 200;
export const IB_MONITOR_LOCK = "ib-fabric-monitor";

export interface IbFabricMonitorDeps {
  db: Kysely<RacksmithDatabase>;
  fabric: InfiniBandFabric;
  metrics: IbMonitorMetrics;
  logger: Logger;
  /** Owner of the work lock (this replica). */
  processorId: string;
  allowInsecure: boolean;
  recordReport(hostId: string, report: HealthReport): Promise<void>;
  /** Wakes the host's lifecycle after its observation changed. */
  enqueueHost(hostId: string): Promise<void>;
  clock?: () => Date;
}

export interface IbMonitorRunResult {
  /** False when another replica holds the lock. */
  ran: boolean;
  reachable: boolean;
  /** Binds, unbinds or QoS corrections applied. */
  changes: number;
  errors: number;
}

/**
 * NICo's IbFabricMonitor: reads the fabric (health, SM config, ports, partitions with GUIDs), compares each
 * host's GUIDs with the pkeys its live instance wants, binds what is missing, unbinds what is unexpected (only
 * pkeys inside the configured ranges), corrects QoS drift, stores each host's observation and keeps the
 * host's IB health (IbCleanupPending, IbPortDown). One replica runs it (work lock); after a change it runs
 * again in 1 s.
 */
export class IbFabricMonitor {
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private nextAt = Number.POSITIVE_INFINITY;
  private running: Promise<IbMonitorRunResult> | undefined;
  private stopped = true;

  constructor(private readonly deps: IbFabricMonitorDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  get intervalMs(): number {
    return this.deps.fabric.settings.monitorIntervalMs;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Asks for a run soon (an instance waits on the fabric); no-op when one is due sooner anyway. */
  poke(): void {
    if (this.stopped || this.running) return;
    if (this.nextAt - Date.now() > POKE_DELAY_MS) this.schedule(POKE_DELAY_MS);
  }

  /** One iteration now (runs never overlap). */
  async runOnce(): Promise<IbMonitorRunResult> {
    while (this.running) await this.running.catch(() => undefined);
    const run = this.iterate();
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.nextAt = Date.now() + delayMs;
    this.timer = setTimeout(async () => {
      this.nextAt = Number.POSITIVE_INFINITY;
      let next = this.intervalMs;
      try {
        const result = await this.runOnce();
        if (result.changes > 0) next = RERUN_AFTER_CHANGE_MS;
      } catch (error) {
        this.deps.logger.error({ err: (error as Error).message }, "IB fabric monitor iteration failed");
      }
      if (this.nextAt === Number.POSITIVE_INFINITY) this.schedule(next);
    }, delayMs);
    this.timer.unref?.();
  }

  private async iterate(): Promise<IbMonitorRunResult> {
    const { db, metrics } = this.deps;
    const now = this.clock();
    // Renewed by its holder, so the holder's 1 s re-run after a change runs while another replica stays out.
    const locked = await tryAcquireWorkLock(db, {
      key: IB_MONITOR_LOCK,
      owner: this.deps.processorId,
      now,
      holdMs: this.intervalMs,
      renew: true,
    });
    if (!locked) return { ran: false, reachable: true, changes: 0, errors: 0 };
    const started = performance.now();
    try {
      return await this.reconcile(now);
    } finally {
      metrics.iterationLatency.observe(performance.now() - started);
    }
  }

  private async reconcile(now: Date): Promise<IbMonitorRunResult> {
    const { db, fabric } = this.deps;
    const ranges = fabric.settings.pkeyRanges;
    const [hosts, instances, partitions, stored] = await Promise.all([
      hostsWithIbPorts(db),
      liveInstances(db),
      readPartitions(db),
      readHostObservations(db),
    ]);
    const read = await this.readFabric(now);
    if (!read) return { ran: true, reachable: false, changes: 0, errors: 0 };
    const { ports, pkeysByGuid, qosDrift, health } = read;

    const livePkey = new Map(partitions.filter((p) => !p.deleted_at).map((p) => [p.id, p.pkey]));
    const instanceOf = new Map<string, HostInstance>();
    for (const instance of instances)
      instanceOf.set(instance.machine_id, {
        id: instance.id,
        config: instance.config,
        releaseRequested: instance.release_requested_at !== null,
      });
    const actual = (guid: IbGuid): Pkey[] | undefined =>
      ports.has(guid) ? (pkeysByGuid.get(guid) ?? []) : undefined;

    const perHost = hosts.map((host) => {
      const guids = hostGuids(host.ports);
      const instance = instanceOf.get(host.hostId);
      const desired = desiredPkeys(host.ports, instance, (id) => livePkey.get(id));
      return { ...host, guids, instance, desired, diff: diffHostPkeys(guids, desired, actual, ranges) };
    });

    // Apply: one call per pkey; the loop goes on after a failure (counted, logged).
    let changes = 0;
    let errors = 0;
    const apply = async (
      pairs: GuidPkey[],
      operation: "bind_guid_to_pkey" | "unbind_guid_from_pkey",
    ): Promise<void> => {
      for (const [pkey, guids] of groupByPkey(pairs)) {
        try {
          if (operation === "bind_guid_to_pkey") await fabric.bindGuids(pkey, guids);
          else await fabric.unbindGuids(pkey, guids);
          changes += guids.length;
          this.deps.metrics.changesApplied.inc(
            { fabric: fabric.name, operation, status: "ok" },
            guids.length,
          );
          for (const guid of guids) {
            const current = pkeysByGuid.get(guid) ?? [];
            pkeysByGuid.set(
              guid,
              operation === "bind_guid_to_pkey"
                ? [...new Set([...current, pkey])].sort((a, b) => a - b)
                : current.filter((p) => p !== pkey),
            );
          }
        } catch (error) {
          errors += guids.length;
          this.deps.metrics.changesApplied.inc(
            { fabric: fabric.name, operation, status: "error" },
            guids.length,
          );
          this.deps.logger.warn(
            { pkey, guids, operation, err: (error as Error).message },
            "IB fabric monitor could not apply a change",
          );
        }
      }
    };
    await apply(
      perHost.flatMap((host) => host.diff.unexpected),
      "unbind_guid_from_pkey",
    );
    await apply(
      perHost.flatMap((host) => host.diff.missing),
      "bind_guid_to_pkey",
    );
    for (const pkey of qosDrift.filter((p) => [...livePkey.values()].includes(p))) {
      try {
        await fabric.updateQos(pkey, fabric.settings.qos);
        changes++;
      } catch (error) {
        errors++;
        this.deps.logger.warn(
          { pkey, err: (error as Error).message },
          "IB fabric monitor could not correct QoS",
        );
      }
    }

    // Observe (after the changes) and keep each host's IB health.
    let observationUpdates = 0;
    const figures = withNoHostsCounted({
      fabric: fabric.name,
      reachable: true,
      ...(health.version ? { version: health.version } : {}),
      partitions: health.partitions ?? 0,
      portsByState: health.ports ?? {},
      insecure: health.securityFindings.length > 0,
      allowInsecure: this.deps.allowInsecure,
    });
    for (const host of perHost) {
      const observation: HostIbObservation = {
        observedAt: now.toISOString(),
        interfaces: host.guids.map((guid) => {
          const port = ports.get(guid);
          return {
            guid,
            lid: port?.state === "active" ? port.lid : 0xffff,
            state: port?.state ?? "unknown",
            pkeys: port ? [...(pkeysByGuid.get(guid) ?? [])].sort((a, b) => a - b) : [],
          };
        }),
      };
      const previous = stored.get(host.hostId);
      const after = diffHostPkeys(host.guids, host.desired, actual, ranges);
      if (after.missing.length) figures.hostsWithMissing++;
      if (after.unexpected.length) figures.hostsWithUnexpected++;
      if (host.diff.unknown.length) figures.hostsWithUnknown++;
      figures.hostsByPorts.push({
        total: observation.interfaces.length,
        active: observation.interfaces.filter((i) => i.state === "active").length,
        withPartitions: observation.interfaces.filter((i) => i.pkeys.some((p) => p !== DEFAULT_PKEY)).length,
      });
      const unexpected = new Set(after.unexpected.map((pair) => pair.guid));
      const cleanupPending = (previous?.cleanupGuids ?? []).filter((guid) => unexpected.has(guid));
      const tracked = trackedGuids(host.ports, host.instance);
      const report = hostIbReport(
        {
          cleanupPending,
          portsDown: observation.interfaces
            .filter((i) => tracked.has(i.guid) && i.state !== "active")
            .map((i) => ({ guid: i.guid, state: i.state })),
        },
        now.toISOString(),
      );
      const keys = alertKeys(report);
      const observationChanged =
        JSON.stringify(previous?.observation?.interfaces ?? null) !== JSON.stringify(observation.interfaces);
      const cleanupChanged = JSON.stringify(previous?.cleanupGuids ?? []) !== JSON.stringify(cleanupPending);
      const alertsChanged = JSON.stringify(previous?.reportedAlerts ?? []) !== JSON.stringify(keys);
      if (alertsChanged) await this.deps.recordReport(host.hostId, report);
      if (observationChanged || cleanupChanged || alertsChanged) {
        await writeHostObservation(
          this.deps.db,
          host.hostId,
          {
            ...(observationChanged ? { observation } : {}),
            cleanupGuids: cleanupPending,
            reportedAlerts: keys,
          },
          now,
        );
      }
      if (observationChanged) {
        observationUpdates++;
        await this.deps.enqueueHost(host.hostId).catch(() => undefined);
      }
    }
    figures.observationUpdates = observationUpdates;
    this.deps.metrics.record(figures);
    return { ran: true, reachable: true, changes, errors };
  }

  /** Everything the iteration needs from the fabric; undefined (health stored as unreachable) on failure. */
  private async readFabric(now: Date): Promise<
    | {
        ports: Map<IbGuid, InfiniBandPort>;
        pkeysByGuid: Map<IbGuid, Pkey[]>;
        qosDrift: Pkey[];
        health: IbFabricHealth;
      }
    | undefined
  > {
    const { fabric, db } = this.deps;
    try {
      const versions = await fabric.versions();
      const smConfig = await fabric.subnetManagerConfig();
      const defaultPartition = await fabric.getPartition(DEFAULT_PKEY, { guids: true });
      const portList = await fabric.listPorts();
      const partitions = await fabric.listPartitions({ guids: true, qos: true });
      const ports = new Map(portList.map((port) => [port.guid, port]));
      const pkeysByGuid = new Map<IbGuid, Pkey[]>();
      const qosDrift: Pkey[] = [];
      for (const partition of partitions) {
        for (const member of partition.members ?? [])
          pkeysByGuid.set(member.guid, [...(pkeysByGuid.get(member.guid) ?? []), partition.pkey]);
        if (
          partition.pkey !== DEFAULT_PKEY &&
          partition.qos &&
          !sameInfiniBandQos(partition.qos, fabric.settings.qos)
        )
          qosDrift.push(partition.pkey);
      }
      const portsByState: Record<string, number> = {};
      for (const port of portList) portsByState[port.state] = (portsByState[port.state] ?? 0) + 1;
      const health: IbFabricHealth = {
        fabric: fabric.name,
        observedAt: now.toISOString(),
        reachable: true,
        version: versions.version,
        partitions: partitions.length,
        ports: portsByState,
        securityFindings: checkInfiniBandFabricSecurity(smConfig, defaultPartition),
        allowInsecure: this.deps.allowInsecure,
      };
      await writeFabricHealth(db, health, now);
      return { ports, pkeysByGuid, qosDrift, health };
    } catch (error) {
      const code = (error as { code?: string }).code ?? "unknown";
      this.deps.logger.warn({ err: (error as Error).message }, "IB fabric monitor could not read the fabric");
      await writeFabricHealth(
        db,
        {
          fabric: fabric.name,
          observedAt: now.toISOString(),
          reachable: false,
          error: (error as Error).message,
          securityFindings: [],
          allowInsecure: this.deps.allowInsecure,
        },
        now,
      );
      this.deps.metrics.record(
        withNoHostsCounted({
          fabric: fabric.name,
          reachable: false,
          error: code,
          partitions: 0,
          portsByState: {},
          insecure: false,
          allowInsecure: this.deps.allowInsecure,
        }),
      );
      return undefined;
    }
  }
}

type HostFigure =
  | "hostsByPorts"
  | "hostsWithMissing"
  | "hostsWithUnexpected"
  | "hostsWithUnknown"
  | "observationUpdates";

/** An iteration's fabric figures with every host figure at zero, to be counted host by host. */
function withNoHostsCounted(fabric: Omit<IbMonitorIterationFigures, HostFigure>): IbMonitorIterationFigures {
  return {
    ...fabric,
    hostsByPorts: [],
    hostsWithMissing: 0,
    hostsWithUnexpected: 0,
    hostsWithUnknown: 0,
    observationUpdates: 0,
  };
}
