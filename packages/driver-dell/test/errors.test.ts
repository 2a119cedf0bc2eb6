import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DellIdracDriver } from "../src/index.js";
import { CREDENTIALS, DellMockup } from "./support/dellMockup.js";
import { DPU_MAC, R750 } from "./support/mockups.js";

// A BMC whose account must change its password first answers 403 PasswordChangeRequired to everything else.
let mockup: DellMockup;
let driver: DellIdracDriver;

beforeAll(async () => {
  mockup = await DellMockup.start(R750, { auth: "password-change-required" });
  driver = await mockup.driver();
});
afterAll(() => mockup.close());

describe("a BMC that requires a password change", () => {
  it.each([
    ["lockdown status", () => driver.lockdownStatus()],
    ["machine setup", () => driver.machineSetup({ bootInterfaceMac: DPU_MAC.R750 })],
    ["BIOS change", () => driver.setBios({ MemTest: "Enabled" })],
    ["serial console status", () => driver.serialConsoleStatus()],
  ])("fails %s with password_change_required and no credential in the error", async (_name, operation) => {
    const failure = (await operation().catch((error: unknown) => error)) as Error & { code?: string };
    expect(failure.code).toBe("password_change_required");
    expect(
      JSON.stringify({ message: failure.message, ...(failure as { details?: object }).details }),
    ).not.toContain(CREDENTIALS.password);
    expect(mockup.take()).toEqual([]);
  });
});
