import { RedfishHttpError } from "@racksmith/core/redfish";
import { type MockupResponse, useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { redfishRefusal } from "../src/testing/index.js";
import { supermicroMockup } from "./support/mockups.js";

const BIOS = "/redfish/v1/Systems/1/Bios";
const SD = `${BIOS}/SD`;

describe("BIOS settings, pending settings and TPM clear (SYS-821GE-TNHR)", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    supermicroMockup("sys-821ge-tnhr", { resetPaths: [BIOS, SD] }),
  );

  it("reads no pending settings while Bios/SD has no Attributes", async () => {
    expect(await bmc.server.service.read(SD)).not.toHaveProperty("Attributes");
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("stages a name on every instance of the attribute with one PATCH of the Bios resource", async () => {
    expect(await bmc.driver.setBios({ TXTSupport: "Enabled", "SR-IOV Support": "Enabled" })).toBeUndefined();
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: BIOS,
        body: {
          Attributes: {
            TXTSupport_0062: "Enabled",
            TXTSupport_0072: "Enabled",
            SR_IOVSupport_0047: "Enabled",
          },
        },
      },
    ]);
    expect(await bmc.driver.pendingBios()).toEqual({
      TXTSupport_0062: "Enabled",
      TXTSupport_0072: "Enabled",
      SR_IOVSupport_0047: "Enabled",
    });
  });

  it("clears pending settings by staging the current values, and a boot applies nothing then", async () => {
    await bmc.driver.setBios({ QuietBoot: false });
    await bmc.driver.clearPendingBios();
    expect(bmc.writes.at(-1)).toEqual({
      method: "PATCH",
      path: BIOS,
      body: { Attributes: { QuietBoot_002D: true } },
    });
    expect(await bmc.driver.pendingBios()).toEqual({});
    await bmc.driver.power("ForceRestart");
    expect((await bmc.driver.bios()).QuietBoot_002D).toBe(true);
  });

  it("applies staged settings at the next boot", async () => {
    await bmc.driver.setBios({ NUMA: "Disabled" });
    await bmc.driver.power("ForceRestart");
    expect((await bmc.driver.bios()).NUMA_003B).toBe("Disabled");
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("refuses unknown names before sending anything", async () => {
    await expect(bmc.driver.setBios({ QuietBoot: false, FastBoot: true })).rejects.toMatchObject({
      code: "bios_attribute_unknown",
      status: "INVALID_ARGUMENT",
    });
    await expect(bmc.driver.setBios({})).rejects.toMatchObject({ code: "invalid_argument" });
    expect(bmc.writes).toEqual([]);
  });

  it("requests a TPM clear through PendingOperation; the BIOS performs it at the next boot", async () => {
    await bmc.driver.clearTpm();
    expect(bmc.writes).toEqual([
      { method: "PATCH", path: BIOS, body: { Attributes: { PendingOperation_0069: "TPM Clear" } } },
    ]);
    expect(await bmc.driver.pendingBios()).toEqual({ PendingOperation_0069: "TPM Clear" });
    await bmc.driver.power("ForceRestart");
    expect((await bmc.driver.bios()).PendingOperation_0069).toBe("None");
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("says TPM clear is not supported when the BIOS has no PendingOperation", async () => {
    const bios = await bmc.server.service.read(BIOS);
    const { PendingOperation_0069: _dropped, ...attributes } = (bios?.Attributes ?? {}) as Record<
      string,
      string
    >;
    bmc.server.service.write(BIOS, { ...bios, Attributes: attributes });
    await expect(bmc.driver.clearTpm()).rejects.toMatchObject({ code: "not_supported" });
  });
});

describe("BIOS changes the BMC refuses", () => {
  const bmc = useDriverMockup({ beforeAll, afterAll, beforeEach }, supermicroMockup("sys-121h-tnr"));
  /** The BMC's answer to the next PATCH of the Bios resource. */
  const refuse = (refusal: () => MockupResponse) =>
    bmc.intercept("PATCH", /\/Systems\/[^/]+\/Bios\/?$/, refusal);

  it("surfaces a 400 with its MessageIds", async () => {
    refuse(() =>
      redfishRefusal(
        400,
        "Base.1.10.3.PropertyValueNotInList",
        "The value Maybe for QuietBoot#002D is not allowed.",
        ["Maybe", "QuietBoot#002D"],
      ),
    );
    const error = await bmc.driver.setBios({ QuietBoot: "Maybe" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedfishHttpError);
    expect(error).toMatchObject({
      httpStatus: 400,
      status: "INVALID_ARGUMENT",
      details: { messageIds: ["Base.1.10.3.PropertyValueNotInList"] },
    });
  });

  it("turns the System Lockdown refusal into system_lockdown_enabled", async () => {
    refuse(() =>
      redfishRefusal(
        403,
        "SMC.1.0.OemSystemLockdownEnabled",
        "System is in lockdown mode. This action is forbidden.",
      ),
    );
    await expect(bmc.driver.machineSetup({})).rejects.toMatchObject({
      code: "system_lockdown_enabled",
      status: "FAILED_PRECONDITION",
      message: expect.stringContaining("disable lockdown first"),
    });
  });
});
