import { type JobRef, type MachineSetupStatus, NotSupportedError, type PowerAction } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import { sql } from "kysely";
import type { Database } from "../../db/index.js";
import { MANAGED_HOST_OBJECT_TYPE, type MachineRow } from "../../explorer/index.js";
import type { BmcAccess, LifecycleBmc } from "../bmc/bmcSession.js";

const NO_MAC = "no boot option names a MAC; cannot put the DPU first by MAC";

/** One fake BMC: power and boot state, the calls it got, and failures to inject. */
export class FakeBmc implements LifecycleBmc {
  on = true;
  bootOverride: string | undefined;
  lockdown = false;
  setupDone = false;
  calls: string[] = [];
  failMachineSetup: string | undefined;
  /** Boot options that name no MAC: the DPU cannot be put first by MAC (the standard driver's answer). */
  bootOptionsWithoutMac = false;
  constructor(
    readonly machine: MachineRow,
    private readonly onBoot: (bmc: FakeBmc) => void,
    private readonly onOff: (bmc: FakeBmc) => void,
  ) {}

  async power(action: PowerAction): Promise<void> {
    this.calls.push(`power:${action}`);
    if (action === "ForceOff" || action === "GracefulShutdown") {
      this.on = false;
      this.onOff(this);
      return;
    }
    this.on = true;
    this.onBoot(this);
  }
  async powerState() {
    return this.on ? ("On" as const) : ("Off" as const);
  }
  async bootOnce(target: "pxe" | "hdd" | "uefiHttp"): Promise<void> {
    this.calls.push(`bootOnce:${target}`);
    this.bootOverride = target;
  }
  async bootFirst(target?: string): Promise<void> {
    this.calls.push(target ? `bootFirst:${target}` : "bootFirst");
  }
  async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    this.calls.push(`setBootOrderDpuFirst:${mac}`);
    if (this.bootOptionsWithoutMac) throw new NotSupportedError("boot order DPU first", NO_MAC);
    return undefined;
  }
  async isBootOrderDpuFirst(): Promise<boolean> {
    if (this.bootOptionsWithoutMac) throw new NotSupportedError("boot order DPU first", NO_MAC);
    return true;
  }
  async machineSetup(): Promise<{ rebootRequired: boolean }> {
    this.calls.push("machineSetup");
    if (this.failMachineSetup) throw new Error(this.failMachineSetup);
    this.setupDone = true;
    return { rebootRequired: true };
  }
  async machineSetupStatus(): Promise<MachineSetupStatus> {
    return {
      done: this.setupDone,
      diffs: this.setupDone ? [] : [{ key: "SriovEnable", expected: "Enabled", actual: "Disabled" }],
    };
  }
  async setLockdown(enabled: boolean): Promise<void> {
    this.calls.push(`setLockdown:${enabled}`);
    this.lockdown = enabled;
  }
  async lockdownStatus() {
    return { state: this.lockdown ? ("enabled" as const) : ("disabled" as const), message: "" };
  }
  async jobStatus(job: JobRef) {
    return { id: job.id, state: "completed" as const };
  }
  async enableRshim(): Promise<void> {
    this.calls.push("enableRshim");
  }
  async secureBootStatus() {
    return { enabled: false, currentBoot: null, mode: null };
  }
  async setSecureBoot(): Promise<void> {
    this.calls.push("setSecureBoot");
  }
}

/**
 * A site for lifecycle tests: one host with its DPUs in the database, a fake BMC per machine, and agents
 * that act on boots (written straight into machine_reports, as the agent API would) — `pump()` makes the
 * running agents report once.
 */
export class FakeSite {
  readonly bmcs = new Map<string, FakeBmc>();
  private readonly dpuOsInstalled = new Set<string>();
  readonly agentsUp = new Set<string>();
  readonly silentDpus = new Set<string>();

  constructor(
    private readonly database: Database,
    private readonly engine: () => StateEngine,
    private readonly clock: () => Date,
  ) {}

  get access(): BmcAccess {
    return () => ({
      of: async (machine) => this.bmc(machine),
      close: async () => undefined,
    });
  }

  bmc(machine: MachineRow): FakeBmc {
    let bmc = this.bmcs.get(machine.id);
    if (!bmc) {
      bmc = new FakeBmc(
        machine,
        (b) => this.booted(b),
        (b) => this.poweredOff(b),
      );
      this.bmcs.set(machine.id, bmc);
    }
    return bmc;
  }

  async addHost(hostId: string, dpuIds: readonly string[]): Promise<void> {
    const now = this.clock();
    const row = (id: string, kind: "host" | "dpu", index: number) => ({
      id,
      kind,
      serial: `SN-${id}`,
      bmc_address: `10.0.0.${index}`,
      bmc_mac: `02:00:00:00:00:${index.toString(16).padStart(2, "0")}`,
      host_id: kind === "dpu" ? hostId : null,
      host_facing_mac: kind === "dpu" ? `02:00:00:00:01:${index.toString(16).padStart(2, "0")}` : null,
      primary_dpu: kind === "dpu" && index === 2,
      vendor: "test",
      model: "test",
      created_at: now,
    });
    await this.database.db
      .insertInto("machines")
      .values([row(hostId, "host", 1), ...dpuIds.map((id, i) => row(id, "dpu", i + 2))])
      .execute();
    await this.engine().createObject(MANAGED_HOST_OBJECT_TYPE, hostId, { state: "created" });
  }

  /** Every running agent reports once (DPU network status; host agent answers what its host waits for). */
  async pump(): Promise<void> {
    const db = this.database.db;
    const now = this.clock();
    const touched = new Set<string>();
    for (const bmc of this.bmcs.values()) {
      const { machine } = bmc;
      if (!this.agentsUp.has(machine.id)) continue;
      if (machine.kind === "dpu") {
        if (this.silentDpus.has(machine.id) || !machine.host_id) continue;
        const managed = await db
          .selectFrom("managed_hosts")
          .selectAll()
          .where("host_id", "=", machine.host_id)
          .executeTakeFirst();
        const instance = await db
          .selectFrom("instances")
          .select(["config_version"])
          .where("machine_id", "=", machine.host_id)
          .where("terminated_at", "is", null)
          .executeTakeFirst();
        const useAdmin = managed?.use_admin_network ?? true;
        await this.report(machine.id, {
          network_status: JSON.stringify({
            observedAt: now.toISOString(),
            appliedManagedHostConfigVersion: managed?.network_config_version ?? 1,
            appliedInstanceConfigVersion: !useAdmin && instance ? instance.config_version : null,
            interfaces: [],
            health: { source: "forge-dpu-agent", successes: [], alerts: [] },
            agentVersion: "test",
          }),
          network_status_at: now,
        });
        touched.add(machine.host_id);
      } else {
        const object = await this.engine().getObjectState(MANAGED_HOST_OBJECT_TYPE, machine.id);
        const label = object?.stateLabel;
        if (label === "hostInit/waitingForDiscovery" || label === "bomValidating/updatingInventory")
          await this.report(machine.id, { discovery_completed_at: now });
        if (label === "waitingForCleanup/hostCleanup") {
          await this.report(machine.id, {
            cleanup_completed_at: now,
            cleanup_result: JSON.stringify({ success: true, message: "" }),
          });
        }
        touched.add(machine.id);
      }
    }
    for (const hostId of touched)
      await this.engine()
        .enqueue(MANAGED_HOST_OBJECT_TYPE, hostId)
        .catch(() => undefined);
  }

  private booted(bmc: FakeBmc): void {
    const { machine } = bmc;
    if (machine.kind === "dpu") {
      if (bmc.bootOverride === "uefiHttp") this.dpuOsInstalled.add(machine.id);
      bmc.bootOverride = undefined;
      if (!this.dpuOsInstalled.has(machine.id)) return;
      this.agentsUp.add(machine.id);
      void this.report(machine.id, { discovery_completed_at: this.clock() });
      return;
    }
    this.agentsUp.add(machine.id);
    // The host powers its DPUs: they boot with it.
    for (const dpu of this.bmcs.values()) {
      if (dpu.machine.host_id === machine.id && !this.agentsUp.has(dpu.machine.id)) this.booted(dpu);
    }
    void this.report(machine.id, { reboot_completed_at: this.clock() });
  }

  private poweredOff(bmc: FakeBmc): void {
    this.agentsUp.delete(bmc.machine.id);
    for (const dpu of this.bmcs.values()) {
      if (dpu.machine.host_id === bmc.machine.id) this.agentsUp.delete(dpu.machine.id);
    }
  }

  private async report(machineId: string, values: Record<string, unknown>): Promise<void> {
    const now = this.clock();
    await sql`INSERT INTO machine_reports (machine_id, updated_at) VALUES (${machineId}, ${now}) ON CONFLICT DO NOTHING`.execute(
      this.database.db,
    );
    await this.database.db
      .updateTable("machine_reports")
      .set({ ...values, updated_at: now } as never)
      .where("machine_id", "=", machineId)
      .execute();
  }
}
