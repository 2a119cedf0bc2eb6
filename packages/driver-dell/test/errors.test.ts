import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DellMockup } from "./support/dellMockup.js";
import { DPU_MAC, R750 } from "./support/mockups.js";

// A BMC whose account must change its password first answers 403 PasswordChangeRequired to everything else.
const mockup = useDriverMockup(
  { beforeAll, afterAll, beforeEach },
  new DellMockup(R750, { auth: "password-change-required" }),
);

describe("a BMC that requires a password change", () => {
  it.each([
    ["lockdown status", () => mockup.driver.lockdownStatus()],
    ["machine setup", () => mockup.driver.machineSetup({ bootInterfaceMac: DPU_MAC.R750 })],
    ["BIOS change", () => mockup.driver.setBios({ MemTest: "Enabled" })],
    ["serial console status", () => mockup.driver.serialConsoleStatus()],
  ])("fails %s with password_change_required and no credential in the error", async (_name, operation) => {
    const failure = (await operation().catch((error: unknown) => error)) as Error & { code?: string };
    expect(failure.code).toBe("password_change_required");
    expect(
      JSON.stringify({ message: failure.message, ...(failure as { details?: object }).details }),
    ).not.toContain(mockup.credentials.password);
    expect(mockup.takeWrites()).toEqual([]);
  });
});
