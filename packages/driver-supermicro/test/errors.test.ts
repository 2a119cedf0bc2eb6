import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { supermicroMockup } from "./support/mockups.js";

describe("a BMC that demands a password change first", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    supermicroMockup("sys-821ge-tnhr", { auth: "password-change-required" }),
  );

  it("fails with password_change_required and never shows the password", async () => {
    const error = await bmc.driver.lockdownStatus().catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: "password_change_required", status: "PERMISSION_DENIED" });
    expect(JSON.stringify(error)).not.toContain(bmc.credentials.password);
    expect(String((error as Error).message)).not.toContain(bmc.credentials.password);
  });
});

describe("accounts, logs and transient BMC errors (SYS-821GE-TNHR)", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-821ge-tnhr"));

  it("checks the BMC's password length limits before sending anything", async () => {
    const writes = () => (bmc.server.stats.byMethod.POST ?? 0) + (bmc.server.stats.byMethod.PATCH ?? 0);
    const before = writes();
    await expect(bmc.driver.createAccount("ops2", "short", "Operator")).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("8 to 20 characters"),
    });
    await expect(bmc.driver.changePassword("operator", "x".repeat(21))).rejects.toMatchObject({
      code: "invalid_argument",
    });
    expect(writes()).toBe(before);
    expect((await bmc.driver.accounts()).map((a) => a.userName)).toEqual(["root", "operator"]);
  });

  it("reads the system SEL (Log1) and the BMC maintenance log (Log1), incrementally", async () => {
    const sel = await bmc.driver.systemEventLog();
    expect(sel.map((e) => [e.id, e.source, e.message])).toEqual([
      ["1", "Log1", "[LAN-0006] Dedicated LAN Link Down"],
      ["2", "Log1", "[LAN-0005] Dedicated LAN Link Up"],
      ["3", "Log1", "[PSU-0001] Power Supply 2 AC lost - Assertion"],
    ]);
    expect((await bmc.driver.systemEventLog({ sinceId: "2" })).map((e) => e.id)).toEqual(["3"]);
    const mel = await bmc.driver.bmcEventLog({ limit: 1 });
    expect(mel).toEqual([expect.objectContaining({ id: "3", messageId: "Event.1.0.BmcConfigChanged" })]);
  });

  it("surfaces a 409 from the BMC as an ABORTED error naming the request", async () => {
    bmc.server.addFault({
      path: "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset",
      status: 409,
      count: 1,
    });
    await expect(bmc.driver.power("ForceRestart")).rejects.toMatchObject({
      httpStatus: 409,
      status: "ABORTED",
      message: expect.stringContaining(
        "POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset returned HTTP 409",
      ),
    });
  });

  it("is honest about what a Supermicro host BMC cannot do", async () => {
    await expect(bmc.driver.nicMode()).rejects.toMatchObject({ code: "not_supported" });
    await expect(bmc.driver.baseMac()).rejects.toMatchObject({ code: "not_supported" });
    await expect(bmc.driver.enableRshim()).rejects.toMatchObject({ code: "not_supported" });
  });
});
