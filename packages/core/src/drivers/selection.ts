import { InvalidArgumentError } from "../errors/index.js";
import type { ServiceProbe } from "../redfish/index.js";
import type { BmcDriverDefinition } from "./bmcDriver.js";
import type { DriverCandidate } from "./explorationReport.js";
import type { HardwareIdentity } from "./hardwareIdentity.js";

export interface DriverSelection {
  driver: BmcDriverDefinition;
  /** Every driver's score, best first (the pinned driver is listed even if it scored 0). */
  candidates: DriverCandidate[];
  pinned: boolean;
}

/**
 * Picks the driver for a BMC: an explicitly pinned name wins; otherwise the highest score, ties broken by
 * registration order. A driver's score is its `detect` on the service root, replaced by its `refine` on the
 * hardware when both are given and `refine` returns a number. `fallback` (RedfishStandard) is used when
 * nothing scores above zero. A driver whose `detect` or `refine` throws is scored 0 — one broken plugin must
 * not stop exploration.
 */
export function selectDriver(
  drivers: readonly BmcDriverDefinition[],
  probe: ServiceProbe,
  options: { pinned?: string; fallback: BmcDriverDefinition; hardware?: HardwareIdentity },
): DriverSelection {
  const all = drivers.some((d) => d.name === options.fallback.name)
    ? drivers
    : [...drivers, options.fallback];
  const candidates = all
    .map((driver, order) => ({ driver, order, score: safeScore(driver, probe, options.hardware) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const scores = candidates.map(({ driver, score }) => ({ name: driver.name, score }));
  if (options.pinned) {
    const pinned = all.find((driver) => driver.name === options.pinned);
    if (!pinned) {
      throw new InvalidArgumentError(
        `driver ${JSON.stringify(options.pinned)} is not registered (known: ${all.map((d) => d.name).join(", ")})`,
      );
    }
    return { driver: pinned, candidates: scores, pinned: true };
  }
  const best = candidates[0];
  return {
    driver: best && best.score > 0 ? best.driver : options.fallback,
    candidates: scores,
    pinned: false,
  };
}

function safeScore(driver: BmcDriverDefinition, probe: ServiceProbe, hardware?: HardwareIdentity): number {
  try {
    const refined = hardware && driver.refine ? driver.refine(hardware, probe) : undefined;
    const score = refined ?? driver.detect(probe.serviceRoot, probe);
    return Number.isFinite(score) ? Math.max(0, Math.min(100, score)) : 0;
  } catch {
    return 0;
  }
}

/** Whether selection has a second step to run: some candidate refines, and no driver is pinned. */
export function wantsHardwareIdentity(
  drivers: readonly BmcDriverDefinition[],
  options: { pinned?: string },
): boolean {
  return options.pinned === undefined && drivers.some((driver) => typeof driver.refine === "function");
}
