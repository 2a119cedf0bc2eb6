import type { HostTest, HostTestSelection, HostTestTarget } from "@racksmith/core";

/**
 * The tests of a run. Automatic runs (and on-demand runs naming none) take the enabled, verified tests of the
 * context that fit the host; an on-demand run naming tests takes exactly those, verified or not — each one that
 * is unknown, disabled or does not fit the host is unschedulable, with why.
 */
export function selectTests(catalogue: readonly HostTest[], target: HostTestTarget): HostTestSelection {
  if (target.only === undefined) {
    return {
      tests: catalogue.filter(
        (test) =>
          test.enabled && test.verified && test.contexts.includes(target.context) && !misfit(test, target),
      ),
      unschedulable: [],
    };
  }
  const selection: HostTestSelection = { tests: [], unschedulable: [] };
  for (const testId of new Set(target.only)) {
    const test = catalogue.find((t) => t.id === testId);
    const reason = !test
      ? "no test has this id"
      : !test.enabled
        ? "the test is disabled"
        : misfit(test, target);
    if (test && !reason) selection.tests.push(test);
    else selection.unschedulable.push({ testId, reason: reason || "cannot run" });
  }
  return selection;
}

/** Why a test does not fit the host (its platform or SKU), or undefined when it does. */
function misfit(test: HostTest, target: HostTestTarget): string | undefined {
  if (test.platforms.length > 0 && !test.platforms.includes(target.platform)) {
    return `runs on ${test.platforms.join(", ")}, not ${target.platform || "an unknown platform"}`;
  }
  if (test.skus.length > 0 && (target.skuId === null || !test.skus.includes(target.skuId))) {
    return `runs on SKUs ${test.skus.join(", ")}, not ${target.skuId ?? "a host without a SKU"}`;
  }
  return undefined;
}
