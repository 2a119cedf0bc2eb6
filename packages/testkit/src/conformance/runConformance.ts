import {
  BMC_CAPABILITIES,
  type BmcCapability,
  isNotSupported,
  readHardwareIdentity,
  redfishStandardDriver,
  wantsHardwareIdentity,
} from "@racksmith/core";
import { startDriverMockup } from "../driverMockup/index.js";
import { CAPABILITY_CHECKS, ConformanceFailure, checkDetect, checkExplore } from "./checks.js";
import type { CheckContext, ConformanceOptions, ConformanceReport, ConformanceResult } from "./types.js";

/**
 * Runs the driver conformance suite: serves the mockup in-process (fresh state, basic auth), creates the
 * driver, then checks detection, exploration and every capability. A declared capability must work or
 * answer `not_supported`; an undeclared one must answer `not_supported` — never pretend to succeed.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const mockup = await startDriverMockup({
    driver: options.driver,
    mockup: options.mockup,
    behaviors: options.behaviors,
    settings: options.settings,
  });
  const results: ConformanceResult[] = [];
  const wanted = (name: ConformanceResult["capability"]): boolean =>
    !options.only || options.only.includes(name);
  try {
    const { driver, probe } = mockup;
    const base = {
      driver,
      definition: options.driver,
      probe,
      expectations: options.expectations ?? {},
      settings: options.settings,
      machineSetup: options.machineSetup,
      settleTimeoutMs: options.settleTimeoutMs ?? 5_000,
    };
    const record = (result: ConformanceResult): void => {
      results.push(result);
      options.onResult?.(result);
    };
    const standardScore = redfishStandardDriver.detect(probe.serviceRoot, probe);
    // Detection as the explorer runs it: with the hardware's make and model when the driver refines.
    const hardware = wantsHardwareIdentity([options.driver], {})
      ? await readHardwareIdentity(mockup.client, probe)
      : undefined;
    if (wanted("detect"))
      record(await runOne("detect", true, base, (ctx) => checkDetect(ctx, standardScore, hardware)));
    if (wanted("explore")) record(await runOne("explore", true, base, checkExplore));
    const declared = new Set<BmcCapability>(options.driver.capabilities);
    for (const capability of BMC_CAPABILITIES) {
      if (!wanted(capability)) continue;
      const check = CAPABILITY_CHECKS[capability];
      record(
        declared.has(capability)
          ? await runOne(capability, true, base, (ctx) => check.run(ctx))
          : await runUndeclared(capability, base, () => check.probe(driver)),
      );
    }
  } finally {
    await mockup.close();
  }
  return {
    driver: options.driver.name,
    mockup: options.mockup,
    passed: results.every((r) => r.status !== "fail"),
    results,
  };
}

type BaseContext = Omit<CheckContext, "check">;

async function runOne(
  capability: ConformanceResult["capability"],
  declared: boolean,
  base: BaseContext,
  body: (context: CheckContext) => Promise<void>,
): Promise<ConformanceResult> {
  const checks: string[] = [];
  const started = performance.now();
  const done = (status: ConformanceResult["status"], message?: string): ConformanceResult => ({
    capability,
    declared,
    status,
    checks,
    ...(message ? { message } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  try {
    await body({ ...base, check: (description) => checks.push(description) });
    return done("pass");
  } catch (error) {
    if (isNotSupported(error)) return done("not_supported", (error as Error).message);
    const prefix =
      error instanceof ConformanceFailure ? "" : `${(error as { code?: string }).code ?? "error"}: `;
    return done("fail", `${prefix}${(error as Error).message}`);
  }
}

async function runUndeclared(
  capability: BmcCapability,
  base: BaseContext,
  call: () => Promise<unknown>,
): Promise<ConformanceResult> {
  return runOne(capability, false, base, async () => {
    await call();
    throw new ConformanceFailure(
      `the driver does not declare ${capability}, yet the operation succeeded: declare it, or throw NotSupportedError`,
    );
  });
}
