import { RedfishHttpError } from "@racksmith/core";
import type { MockupBehavior, MockupResponse } from "@racksmith/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { redfishRefusal } from "../src/testing/index.js";
import { mockupDir, type RunningBmc, saveResources, startBmc } from "./support/mockups.js";
import { writeRecorder } from "./support/recorder.js";

const BIOS = "/redfish/v1/Systems/1/Bios";
const SD = `${BIOS}/SD`;

describe("BIOS settings, pending settings and TPM clear (SYS-821GE-TNHR)", () => {
  const recorder = writeRecorder();
  let bmc: RunningBmc;
  let restore: () => void;

  beforeAll(async () => {
    bmc = await startBmc(mockupDir("sys-821ge-tnhr"), { before: [recorder] });
  });
  afterAll(() => bmc.stop());
  beforeEach(async () => {
    recorder.clear();
    restore = await saveResources(bmc.server.service, [BIOS, SD]);
  });
  afterEach(() => restore());

  it("reads no pending settings while Bios/SD has no Attributes", async () => {
    expect(await bmc.server.service.read(SD)).not.toHaveProperty("Attributes");
    expect(await bmc.driver.pendingBios()).toEqual({});
  });

  it("stages a name on every instance of the attribute with one PATCH of the Bios resource", async () => {
    expect(await bmc.driver.setBios({ TXTSupport: "Enabled", "SR-IOV Support": "Enabled" })).toBeUndefined();
    expect(recorder.writes).toEqual([
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
    expect(recorder.writes.at(-1)).toEqual({
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
    expect(recorder.writes).toEqual([]);
  });

  it("requests a TPM clear through PendingOperation; the BIOS performs it at the next boot", async () => {
    await bmc.driver.clearTpm();
    expect(recorder.writes).toEqual([
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
  let refusal: (() => MockupResponse) | undefined;
  const refuse: MockupBehavior = {
    name: "test-refuse-bios",
    patch: { "/redfish/v1/Systems/*/Bios": () => refusal?.() },
  };
  let bmc: RunningBmc;

  beforeAll(async () => {
    bmc = await startBmc(mockupDir("sys-121h-tnr"), { before: [refuse] });
  });
  afterAll(() => bmc.stop());
  afterEach(() => {
    refusal = undefined;
  });

  it("surfaces a 400 with its MessageIds", async () => {
    refusal = () =>
      redfishRefusal(
        400,
        "Base.1.10.3.PropertyValueNotInList",
        "The value Maybe for QuietBoot#002D is not allowed.",
        ["Maybe", "QuietBoot#002D"],
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
    refusal = () =>
      redfishRefusal(
        403,
        "SMC.1.0.OemSystemLockdownEnabled",
        "System is in lockdown mode. This action is forbidden.",
      );
    await expect(bmc.driver.machineSetup({})).rejects.toMatchObject({
      code: "system_lockdown_enabled",
      status: "FAILED_PRECONDITION",
      message: expect.stringContaining("disable lockdown first"),
    });
  });
});
