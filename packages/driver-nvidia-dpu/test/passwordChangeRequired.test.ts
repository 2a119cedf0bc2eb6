import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DETECTION_SCORE, nvidiaDpuDriver } from "../src/index.js";
import { bluefieldMockup, CREDENTIALS } from "./support/bmc.js";
import { mockupDir } from "./support/paths.js";

// A DPU BMC fresh from the factory: every request is refused until the account's password is changed.
const bmc = useDriverMockup(
  { beforeAll, afterAll, beforeEach },
  bluefieldMockup(mockupDir("bluefield-3"), { auth: "password-change-required" }),
);

describe("a BlueField BMC that requires a password change", () => {
  it("is still recognised from its anonymous service root", async () => {
    const probe = await bmc.driver.probe();
    expect(probe.systemIds).toEqual([]);
    expect(nvidiaDpuDriver.detect(probe.serviceRoot, probe)).toBe(DETECTION_SCORE.productOnly);
  });

  it.each([
    ["nicMode", () => bmc.driver.nicMode()],
    ["machineSetup", () => bmc.driver.machineSetup({})],
    ["changeUefiPassword", () => bmc.driver.changeUefiPassword("", "Uefi-Pass-1")],
  ])("%s fails with password_change_required and no credential in the error", async (_name, call) => {
    const error = (await call().catch((e: unknown) => e)) as Error & { code?: string; details?: object };
    expect(error.code).toBe("password_change_required");
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(
      CREDENTIALS.password,
    );
  });
});
