import type { SimulatedSite } from "@racksmith/simulator";
import { waitFor } from "./waitFor.js";

/** Every host's state label by host id. */
export async function hostLabels(site: Pick<SimulatedSite, "hostStates">): Promise<Map<string, string>> {
  return new Map((await site.hostStates()).map((s) => [s.objectId, s.stateLabel] as const));
}

/** Waits until the hosts' state labels pass `check`; a stuck run fails listing every host's label. */
export function untilHostLabels(
  site: Pick<SimulatedSite, "hostStates">,
  what: string,
  check: (labels: Map<string, string>) => boolean,
): Promise<true> {
  return waitFor(async () => check(await hostLabels(site)), {
    what,
    // Bounds a stuck run, not a slow one.
    timeoutMs: 900_000,
    everyMs: 500,
    describe: async () => [...(await hostLabels(site))].map(([id, label]) => `${id} ${label}`).join("\n"),
  });
}
