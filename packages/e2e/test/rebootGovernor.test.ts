import { retryIntervalMs } from "@racksmith/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_DATABASES } from "./support/databases.js";
import { simulatedSite } from "./support/simulatedSite.js";
import { waitFor } from "./support/waitFor.js";

// Reports come late (every agent starts long after its machine boots) while the lifecycle's first retry is due
// after 1 s: the backoff and the site-wide caps must keep that from becoming a reboot storm (issue 22).
const HOSTS = 3;
const LIFECYCLE = {
  failureRetryTimeMs: 1_000,
  rebootBackoffFactor: 2,
  maxRebootIntervalMs: 8_000,
  // Enough cycles that no host gives up before the reports flow again, even on a busy machine.
  maxRebootCycles: 100,
  maxRebootsPerMinute: 30,
  maxRebootsInFlight: 2,
  rebootSettleMs: 3_000,
};
const SLOW_BOOT_MS = 600_000;
const NORMAL_BOOT_MS = 300;

interface Reset {
  bmc: string;
  at: number;
  resetType: string | undefined;
}

describe.each(E2E_DATABASES)("late agent reports under the reboot governor on $kind", (database) => {
  let site: Awaited<ReturnType<typeof simulatedSite>>;
  const resets: Reset[] = [];
  /** The governor's own figures, as /metrics showed them at every scrape. */
  const scraped: Array<Record<string, number>> = [];

  beforeAll(async () => {
    site = await simulatedSite(database, {
      hosts: HOSTS,
      // Every host runs again every 0.5 s: a retry fires as soon as it is due, so its timing is the backoff's.
      sections: { lifecycle: LIFECYCLE, engine: { iterationIntervalMs: 500 } },
      agentTiming: { bootDelayMs: SLOW_BOOT_MS },
    });
    for (const bmc of site.fleet.bmcs) {
      bmc.onPowerChange((change) =>
        resets.push({ bmc: bmc.id, at: Date.now(), resetType: change.resetType }),
      );
    }
  });

  afterAll(async () => {
    await site?.close();
  });

  async function rebootFigures(): Promise<Record<string, number>> {
    const text = await (await fetch(`${site.url}/metrics`)).text();
    const figures: Record<string, number> = {};
    const lines = /^racksmith_lifecycle_(?:reboots_total\{kind|reboot_status\{figure)="(\w+)"\} (\d+)/gm;
    for (const [, name, value] of text.matchAll(lines)) figures[name as string] = Number(value);
    scraped.push(figures);
    return figures;
  }

  it("backs off and holds reboots at the caps while reports are late; every host is Ready once they flow", async () => {
    // Late reports: wait until the lifecycle has retried (no report came) and a cap has held a reboot back.
    await waitFor(async () => ((await rebootFigures()).retry ?? 0) >= 3 * HOSTS, {
      what: "retry reboots while the agents' reports are late",
      everyMs: 100,
    });
    await waitFor(async () => ((await rebootFigures()).held ?? 0) > 0, {
      what: "a site-wide cap holding a reboot back",
      everyMs: 100,
    });
    const lifted = Date.now();
    site.agents.delayBoots(NORMAL_BOOT_MS);

    await waitFor(
      async () => {
        await rebootFigures();
        return (await site.hostStates()).every((state) => state.state.state === "ready");
      },
      {
        what: `all ${HOSTS} hosts Ready once the reports flow`,
        everyMs: 100,
        describe: async () =>
          (await site.hostStates())
            .map((s) => `${s.objectId} ${s.stateLabel}: ${s.outcome?.reason ?? s.outcome?.kind ?? ""}`)
            .join("\n"),
      },
    );
    const final = await rebootFigures();

    // The caps held at every scrape, in the governor's own count…
    for (const figures of scraped) {
      expect(figures.in_flight ?? 0).toBeLessThanOrEqual(LIFECYCLE.maxRebootsInFlight);
      expect(figures.last_minute ?? 0).toBeLessThanOrEqual(LIFECYCLE.maxRebootsPerMinute);
    }
    // …and no BMC saw a reset that did not go through it (power-ons that end a power cycle are never held).
    const ordered = resets.filter((reset) => reset.resetType !== "On");
    expect(ordered.length).toBeGreaterThan(0);
    expect(ordered.length).toBeLessThanOrEqual((final.required ?? 0) + (final.retry ?? 0));

    // Backoff: while reports were late, a DPU's resets (its wait's kick, then cycle 1, 2, …) came no faster
    // than the growing interval allows. A reset reaches its BMC before its time is recorded, and the next
    // interval counts from that record, so the gaps the BMC sees are never shorter.
    const policy = { ...LIFECYCLE, powerOffEveryNthCycle: 4, powerDownWaitMs: 0 };
    const dpus = site.fleet.bmcs.filter((bmc) => bmc.kind === "dpu").map((bmc) => bmc.id);
    const gaps = dpus.flatMap((dpu) => {
      const times = ordered
        .filter((reset) => reset.bmc === dpu && reset.at <= lifted)
        .map((reset) => reset.at);
      return times
        .slice(1)
        .map((at, index) => ({ dpu, cycle: index + 1, gap: at - (times[index] as number) }));
    });
    // The lifecycle retried (3 per host on average) before the reports came: there are gaps to judge.
    expect(gaps.length).toBeGreaterThanOrEqual(2 * HOSTS);
    for (const { dpu, cycle, gap } of gaps) {
      expect(gap, `${dpu}: gap before cycle ${cycle}`).toBeGreaterThanOrEqual(retryIntervalMs(policy, cycle));
    }
  }, 900_000);
});
