import { isNotSupported } from "@racksmith/core";
import {
  type JsonObject,
  type MockupBehavior,
  type MockupResponse,
  useDriverMockup,
} from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bluefieldError, bluefieldMockup, nicModeRoundTrip, UEFI_HTTP_BOOT_ONCE } from "./support/bmc.js";
import { mockupDir } from "./support/paths.js";

const S = "/redfish/v1/Systems/Bluefield";
const M = "/redfish/v1/Managers/Bluefield_BMC";

// Plays an older BMC whose BIOS lists no setup keys yet and only accepts the spaced spelling.
let onlySpacedKeys = false;
const spacedKeysBios: MockupBehavior = {
  name: "spaced-keys-bios",
  patch: {
    [`${S}/Bios/Settings`]: async ({ service, body }): Promise<MockupResponse | undefined> => {
      if (!onlySpacedKeys) return undefined;
      const keys = Object.keys(body.Attributes as JsonObject);
      const unspaced = keys.find((key) => key === "HostPrivilegeLevel" || key === "InternalCPUModel");
      if (unspaced) {
        return bluefieldError(400, {
          MessageId: "Base.1.8.PropertyUnknown",
          MessageArgs: [String(unspaced)],
        });
      }
      await service.merge(`${S}/Bios/Settings`, body);
      return { status: 204, headers: {} };
    },
  },
};

const bmc = useDriverMockup(
  { beforeAll, afterAll, beforeEach },
  bluefieldMockup(mockupDir("bluefield-2"), { before: [spacedKeysBios] }),
);

/** Runs `body` with a resource temporarily replaced, restoring it afterwards. */
async function withResource(
  path: string,
  change: (body: JsonObject) => JsonObject,
  body: () => Promise<void>,
) {
  const original = (await bmc.server.service.read(path)) as JsonObject;
  bmc.server.service.write(path, change(original));
  try {
    await body();
  } finally {
    bmc.server.service.write(path, original);
  }
}

describe("BlueField-2: identity", () => {
  it("is generation 2 with the card serial, and derives the base MAC from DPU_SYS_IMAGE", async () => {
    expect(await bmc.driver.generation()).toBe(2);
    expect(await bmc.driver.serialNumber()).toBe("MT2307X0RS02");
    // 0c42:a103:00bb:2200 → without colons 0c42a10300bb2200 → drop the inserted 0300.
    expect(await bmc.driver.baseMac()).toBe("0C:42:A1:BB:22:00");
  });

  it("says why when neither source has a base MAC", async () => {
    await withResource(
      "/redfish/v1/UpdateService/FirmwareInventory/DPU_SYS_IMAGE",
      (body) => ({ ...body, Version: "N/A" }),
      async () => {
        await expect(bmc.driver.baseMac()).rejects.toMatchObject({ code: "base_mac_unavailable" });
      },
    );
  });
});

describe("BlueField-2: NIC mode through the NicMode BIOS attribute", () => {
  it("reads the mode from the BIOS and changes it there, applied at the next boot", async () => {
    expect(await bmc.driver.nicMode()).toBe("dpu");
    await nicModeRoundTrip(bmc, {
      method: "PATCH",
      path: `${S}/Bios/Settings`,
      body: { Attributes: { NicMode: "NicMode" } },
    });
  });

  it("is not supported on BMC firmware older than BF-23.10-5", async () => {
    await withResource(
      M,
      (body) => ({ ...body, FirmwareVersion: "BF-23.04-2" }),
      async () => {
        for (const call of [() => bmc.driver.nicMode(), () => bmc.driver.setNicMode("nic")]) {
          const error = (await call().catch((e: unknown) => e)) as Error;
          expect(isNotSupported(error)).toBe(true);
          expect(error.message).toContain("BF-23.10-5");
        }
        expect(bmc.writes).toEqual([]);
      },
    );
  });

  it("is not supported on BF2 firmware that has no NicMode attribute (the mode is never guessed)", async () => {
    await withResource(
      `${S}/Bios`,
      (body) => {
        const { NicMode: _dropped, ...attributes } = body.Attributes as JsonObject;
        return { ...body, Attributes: attributes };
      },
      async () => {
        await expect(bmc.driver.nicMode()).rejects.toMatchObject({ code: "not_supported" });
        await expect(bmc.driver.setNicMode("nic")).rejects.toMatchObject({ code: "not_supported" });
        expect(bmc.writes).toEqual([]);
      },
    );
  });
});

describe("BlueField-2: machine setup", () => {
  it("uses the spaced BIOS keys this firmware lists and skips host rshim", async () => {
    expect((await bmc.driver.machineSetupStatus({})).diffs).toEqual([
      { key: "Host Privilege Level", expected: "Restricted", actual: "Privileged" },
      { key: "Internal CPU Model", expected: "Embedded", actual: "Separated" },
    ]);
    await bmc.driver.machineSetup({});
    expect(bmc.writes).toEqual([
      {
        method: "PATCH",
        path: `${S}/Bios/Settings`,
        body: { Attributes: { "Host Privilege Level": "Restricted", "Internal CPU Model": "Embedded" } },
      },
      UEFI_HTTP_BOOT_ONCE,
    ]);
    await bmc.reboot();
    expect(await bmc.driver.machineSetupStatus({})).toEqual({ done: true, diffs: [] });
  });

  it("retries once with the other spelling when the BMC refuses keys it did not list", async () => {
    await withResource(
      `${S}/Bios`,
      (body) => {
        const attributes = { ...(body.Attributes as JsonObject) };
        delete attributes["Host Privilege Level"];
        delete attributes["Internal CPU Model"];
        return { ...body, Attributes: attributes };
      },
      async () => {
        // Firmware 24.10 implies the new keys; this BMC only takes the spaced ones.
        await withResource(
          M,
          (body) => ({ ...body, FirmwareVersion: "BF-24.10-10" }),
          async () => {
            onlySpacedKeys = true;
            try {
              await bmc.driver.machineSetup({});
            } finally {
              onlySpacedKeys = false;
            }
          },
        );
      },
    );
    const biosWrites = bmc.writes.filter((w) => w.path === `${S}/Bios/Settings`).map((w) => w.body);
    expect(biosWrites).toEqual([
      { Attributes: { HostPrivilegeLevel: "Restricted", InternalCPUModel: "Embedded" } },
      { Attributes: { "Host Privilege Level": "Restricted", "Internal CPU Model": "Embedded" } },
    ]);
    await bmc.driver.clearPendingBios();
  });

  it("enables the BMC rshim, which this card ships disabled", async () => {
    await bmc.driver.enableRshim();
    expect(bmc.writes).toEqual([
      { method: "PATCH", path: `${M}/Oem/Nvidia`, body: { BmcRShim: { BmcRShimEnabled: true } } },
    ]);
    expect(await bmc.server.service.read(`${M}/Oem/Nvidia`)).toEqual({ BmcRShim: { BmcRShimEnabled: true } });
  });
});
