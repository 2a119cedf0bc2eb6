import { runCliJson } from "@racksmith/cli";
import type { ObjectStateView } from "@racksmith/core/engine";
import { type InstanceView, invalidTransitions, type MachineDetail } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

const HOSTS = 50;

/** Milestones every host passes, in this order, on its way to Ready (vendor steps such as BIOS jobs vary). */
const MILESTONES = [
  "created",
  "dpuDiscovering/enableRshim",
  "dpuDiscovering/setUefiHttpBoot",
  "dpuInit/waitingForDiscovery",
  "dpuInit/powerCycleHostOff",
  "dpuInit/waitingForPlatformConfiguration",
  "dpuInit/waitingForNetworkConfig",
  "hostInit/disableLockdown",
  "hostInit/machineSetup",
  "hostInit/setBootOrder",
  "hostInit/waitingForDiscovery",
  "hostInit/enableLockdown",
  "hostInit/waitingForDpusUp",
  "hostInit/pollingLockdownStatus",
  "validation/discovery",
  "discovered",
  "ready",
];

const RELEASE_PATH = [
  "assigned/powerCycleOff",
  "assigned/powerCycleOn",
  "assigned/unlockHost",
  "assigned/bootingWithDiscoveryImage",
  "assigned/switchToAdminNetwork",
  "assigned/waitingForNetworkReconfig",
  "waitingForCleanup/hostCleanup",
  "waitingForCleanup/lockHost",
  "validation/cleanup",
  "discovered",
  "ready",
];

const describeStates = (states: ObjectStateView[]) =>
  states
    .filter((s) => s.state.state !== "ready")
    .map((s) => `${s.objectId} ${s.stateLabel}: ${s.outcome?.reason ?? s.outcome?.error?.message ?? ""}`)
    .join("\n");

// Acceptance (issue 6): 50 hosts reach Ready along the full path; 10 instances go Provisioning → Ready and back.
describe.each(E2E_DATABASES)(
  "the managed-host lifecycle of a simulated 50-host site on $kind",
  (database) => {
    let site: Awaited<ReturnType<typeof simulatedSite>>;
    const cli = <T>(...argv: string[]) =>
      runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);
    const history = async (id: string) =>
      (await cli<MachineDetail>("machine", "show", id, "--history")).history.map((h) => h.label).reverse();

    beforeAll(async () => {
      site = await simulatedSite(database, { hosts: HOSTS, seed: 6 });
    }, 360_000);
    afterAll(async () => {
      await site?.close();
    });

    it("takes every host to Ready, each history showing the whole path", async () => {
      const states = await waitFor(
        async () => {
          const all = await site.hostStates();
          return all.length === HOSTS && all.every((s) => s.state.state === "ready") && all;
        },
        {
          what: `${HOSTS} Ready hosts`,
          // Bounds a stuck run, not a slow one: the embedded database on a busy 2-core machine takes >10 min.
          timeoutMs: 1_500_000,
          everyMs: 1_000,
          describe: async () => describeStates(await site.hostStates()),
        },
      );
      for (const host of states) {
        const labels = await history(host.objectId);
        expect(invalidTransitions(labels), host.objectId).toEqual([]);
        // Every state left says how it ended; only the current one (newest first) is still open.
        const entries = (await cli<MachineDetail>("machine", "show", host.objectId, "--history")).history;
        expect(
          entries.map((entry) => entry.exitOutcome === null),
          host.objectId,
        ).toEqual(entries.map((_, index) => index === 0));
        expect(
          labels.filter((label) => MILESTONES.includes(label)),
          host.objectId,
        ).toEqual(MILESTONES);
      }
    }, 1_800_000);

    it("runs 10 instances: Provisioning → Ready with configs synced, then Terminating → cleanup → Ready", async () => {
      // Hosts free of allocation-blocking health alerts (a BMC exploration that timed out on a loaded machine
      // rightly blocks its host): at least 10 of the 50.
      const free: string[] = [];
      for (const state of await site.hostStates()) {
        const health = await cli<{ alerts: Array<{ classifications: string[] }> }>(
          "health",
          "show",
          state.objectId,
        );
        if (!health.alerts.some((a) => a.classifications.includes("PreventAllocations")))
          free.push(state.objectId);
      }
      expect(free.length).toBeGreaterThanOrEqual(10);
      const hosts = free.slice(0, 10);
      const instances = await Promise.all(
        hosts.map((id) =>
          cli<InstanceView>(
            "instance",
            "allocate",
            "--machine",
            id,
            "--tenant",
            "acme",
            "--interface",
            "pf0=tenant-a",
          ),
        ),
      );
      expect(instances.map((i) => i.status.tenantState)).toEqual(Array(10).fill("Provisioning"));
      // Every state each instance was seen in, from the allocation's answer on (a fast site may provision an
      // instance before the first look).
      const seen = new Map<string, Set<string>>(
        instances.map((i) => [i.id, new Set([i.status.tenantState])]),
      );
      const watch = async (until: (i: InstanceView) => boolean) =>
        waitFor(
          async () => {
            const views = await Promise.all(
              instances.map((i) => cli<InstanceView>("instance", "show", i.id)),
            );
            for (const view of views) seen.get(view.id)?.add(view.status.tenantState);
            return views.every(until) && views;
          },
          { what: "the instances", timeoutMs: 360_000, everyMs: 200 },
        );
      const ready = await watch((i) => i.status.tenantState === "Ready");
      for (const view of ready) {
        expect(view.status.configsSynced).toEqual({ aggregate: "synced", subsystems: { network: "synced" } });
        expect(view.status.hostState).toBe("assigned/ready");
        expect([...(seen.get(view.id) ?? [])]).toEqual(["Provisioning", "Ready"]);
      }

      const released = await Promise.all(
        instances.map((i) => cli<InstanceView>("instance", "release", i.id)),
      );
      for (const view of released) seen.get(view.id)?.add(view.status.tenantState);
      const terminated = await watch((i) => i.status.tenantState === "Terminated");
      for (const view of terminated) expect(seen.get(view.id)).toContain("Terminating");
      await waitFor(
        async () =>
          (await site.hostStates())
            .filter((s) => hosts.includes(s.objectId))
            .every((s) => s.state.state === "ready"),
        { what: "the released hosts back in Ready", timeoutMs: 360_000 },
      );
      for (const id of hosts) {
        const labels = await history(id);
        expect(invalidTransitions(labels), id).toEqual([]);
        const assigned = labels.lastIndexOf("assigned/waitingForNetworkConfig");
        expect(labels.slice(assigned, assigned + 3)).toEqual([
          "assigned/waitingForNetworkConfig",
          "assigned/waitingForRebootToReady",
          "assigned/ready",
        ]);
        // The host is back on the admin network (its DPUs applied it) before cleanup starts.
        expect(labels.slice(labels.lastIndexOf("assigned/ready") + 1)).toEqual(RELEASE_PATH);
      }
      const list = await cli<InstanceView[]>("instance", "list", "--tenant", "acme", "--all");
      expect(list.filter((i) => i.terminatedAt !== null)).toHaveLength(10);
    }, 900_000);
  },
);

// Acceptance (issue 6): a silent DPU agent waits above SLA with its reason; a rejected machineSetup fails the host.
describe("hosts that cannot make it", () => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const cli = <T>(...argv: string[]) => runCliJson<T>([...argv, "--server", site.url, "--token", site.token]);

  beforeAll(async () => {
    site = await simulatedSite(E2E_DATABASES[0] ?? { kind: "pglite" }, {
      hosts: 4,
      seed: 9,
      sections: { lifecycle: { slaMs: { dpuInit: 3_000 }, retryIntervalMs: 500, maxRetries: 3 } },
      // In place before the Dell host is registered: a host already past machine setup would never fail it.
      prepareFleet: (fleet) => {
        const dell = fleet.bmcs.find((b) => b.kind === "host" && b.vendor === "dell");
        dell?.addFault({ method: "PATCH", path: "/redfish/v1/Systems/*/Bios/Settings", status: 400 });
      },
    });
  }, 360_000);
  afterAll(async () => {
    await site?.close();
  });

  it("keeps a host whose DPU agent never reports in its wait, with the reason and above SLA", async () => {
    const host = site.fleet.bmcs.find((b) => b.kind === "host" && b.vendor === "lenovo");
    const dpu = site.fleet.bmc(host?.plan.dpus[0] ?? "");
    expect(dpu).toBeDefined();
    site.agents.silenceDpuAgent(dpu?.id ?? "");
    const id = await machineIdOf(host?.mac ?? "");
    const detail = await waitFor(
      async () => {
        const machine = await cli<MachineDetail>("machine", "show", id);
        return machine.lifecycle?.sla.aboveSla === true && machine;
      },
      { what: "the silent DPU's host above SLA", timeoutMs: 180_000 },
    );
    expect(detail.lifecycle?.stateLabel).toBe("dpuInit/waitingForDiscovery");
    expect(detail.lifecycle?.outcome?.kind).toBe("wait");
    expect(detail.lifecycle?.outcome?.reason).toContain("waiting for the DPU agent of");
  }, 270_000);

  it("moves a host whose BMC rejects machine setup through the bounded retries to Failed, shown by machine show", async () => {
    const host = site.fleet.bmcs.find((b) => b.kind === "host" && b.vendor === "dell");
    const id = await machineIdOf(host?.mac ?? "");
    const detail = await waitFor(
      async () => {
        const machine = await cli<MachineDetail>("machine", "show", id, "--history");
        return machine.lifecycle?.stateLabel === "failed" && machine;
      },
      { what: "the host in Failed", timeoutMs: 270_000 },
    );
    expect(detail.lifecycle?.failure).toMatchObject({
      cause: "machineSetup",
      source: "stateMachine/hostInit",
      failedIn: "hostInit/machineSetup",
      message: expect.stringContaining("(3 attempts)"),
    });
    const labels = detail.history.map((h) => h.label).reverse();
    expect(labels.filter((l) => l === "hostInit/machineSetup")).toHaveLength(3);
    expect(invalidTransitions(labels)).toEqual([]);
  }, 360_000);

  async function machineIdOf(bmcMac: string): Promise<string> {
    return waitFor(
      async () => {
        const machines = await cli<Array<{ id: string; bmcMac: string }>>("machine", "list");
        return machines.find((m) => m.bmcMac.toLowerCase() === bmcMac.toLowerCase())?.id;
      },
      { what: `the machine of ${bmcMac}`, timeoutMs: 180_000 },
    );
  }
});
