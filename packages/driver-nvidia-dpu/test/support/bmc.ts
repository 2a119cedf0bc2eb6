import {
  DriverMockup,
  type DriverMockupOptions,
  type JsonObject,
  jsonResponse,
  type MockupResponse,
  type RecordedWrite,
} from "@racksmith/testkit";
import { expect } from "vitest";
import { NvidiaDpuDriver } from "../../src/index.js";
import { BLUEFIELD_BEHAVIORS } from "../../src/testing/index.js";
import { FIXTURE_CONFIG } from "./paths.js";

export const CREDENTIALS = { username: "root", password: "Bmc-Secret-42!" };

export type BluefieldMockup = DriverMockup<NvidiaDpuDriver>;

/**
 * A BlueField mockup with the package's behaviors (a reboot plays out what the DPU's UEFI applies) and
 * the driver connected to it over HTTP with basic auth; `redfishArgs()` loads this package through the config.
 */
export function bluefieldMockup(
  root: string,
  options: Partial<DriverMockupOptions<NvidiaDpuDriver>> = {},
): BluefieldMockup {
  return new DriverMockup({
    driver: (client, context) => new NvidiaDpuDriver(client, context),
    mockup: root,
    behaviors: BLUEFIELD_BEHAVIORS,
    credentials: CREDENTIALS,
    cliConfig: FIXTURE_CONFIG,
    ...options,
  });
}

/** The one-time UEFI HTTP boot machine setup stages in the system's settings object (applied at the reboot). */
export const UEFI_HTTP_BOOT_ONCE: RecordedWrite = {
  method: "PATCH",
  path: "/redfish/v1/Systems/Bluefield/Settings",
  body: {
    Boot: {
      BootSourceOverrideEnabled: "Once",
      BootSourceOverrideMode: "UEFI",
      BootSourceOverrideTarget: "UefiHttp",
    },
  },
};

/** A BlueField BMC's Redfish error: `message`, with one `@Message.ExtendedInfo` entry. */
export function bluefieldError(status: number, info: JsonObject, message = "error"): MockupResponse {
  return jsonResponse(status, {
    error: { code: "Base.1.8.GeneralError", message, "@Message.ExtendedInfo": [info] },
  });
}

/**
 * Switches the DPU to NIC mode and back, expecting `write` to be the one request that asks for NIC mode and each
 * mode to show only after the DPU rebooted.
 */
export async function nicModeRoundTrip(bmc: BluefieldMockup, write: RecordedWrite): Promise<void> {
  await bmc.driver.setNicMode("nic");
  expect(bmc.writes).toEqual([write]);
  expect(await bmc.driver.nicMode()).toBe("dpu");
  await bmc.reboot();
  expect(await bmc.driver.nicMode()).toBe("nic");
  await bmc.driver.setNicMode("dpu");
  await bmc.reboot();
  expect(await bmc.driver.nicMode()).toBe("dpu");
}
