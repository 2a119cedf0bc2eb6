import { fileURLToPath } from "node:url";
import { type Logger, silentLogger } from "@racksmith/core";
import { DriverMockup, type DriverMockupOptions } from "@racksmith/testkit";
import { LenovoXccDriver } from "../../src/index.js";
import { XCC_BEHAVIORS } from "../../src/testing/index.js";

/** Our own mockups, one per model whose behaviour differs. */
export const LENOVO_MOCKUPS = {
  sr670v2: fileURLToPath(new URL("../../mockups/thinksystem-sr670-v2", import.meta.url)),
  sr675v3: fileURLToPath(new URL("../../mockups/thinksystem-sr675-v3", import.meta.url)),
} as const;

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** The BIOS settings that share COM1 with the XCC for serial-over-LAN, as the driver stages them. */
export const SERIAL_CONSOLE = {
  DevicesandIOPorts_COMPort1: "Enabled",
  DevicesandIOPorts_ConsoleRedirection: "Enabled",
  DevicesandIOPorts_SPRedirection: "Enabled",
  DevicesandIOPorts_SerialPortSharing: "Enabled",
  DevicesandIOPorts_COMPortActiveAfterBoot: "Enabled",
  DevicesandIOPorts_SerialPortAccessMode: "Shared",
};

/** The driver with no real pause between ForceOff and On. */
export class TestXccDriver extends LenovoXccDriver {
  readonly pauses: number[] = [];
  protected override async pause(ms: number): Promise<void> {
    this.pauses.push(ms);
  }
}

/** A captured logger, to assert what the driver warns about. */
export function memoryLogger(): Logger & {
  warnings: Array<{ fields: Record<string, unknown>; message: string }>;
} {
  const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
  return { ...silentLogger, warn: (fields, message) => void warnings.push({ fields, message }), warnings };
}

/** Paths the driver changes; restored before each test so tests do not depend on each other. */
const MUTABLE_PATHS = [
  "/redfish/v1/Systems/1",
  "/redfish/v1/Systems/1/Pending",
  "/redfish/v1/Systems/1/Bios",
  "/redfish/v1/Systems/1/Bios/Pending",
  "/redfish/v1/Systems/1/BootOptions",
  "/redfish/v1/Systems/1/Oem/Lenovo/BootSettings/BootOrder.NetworkBootOrder",
  "/redfish/v1/Managers/1",
  "/redfish/v1/Managers/1/Oem/Lenovo/Security",
  "/redfish/v1/Managers/1/EthernetInterfaces/ToHost",
  "/redfish/v1/AccountService",
  "/redfish/v1/UpdateService/FirmwareInventory/UEFI",
  "/redfish/v1/Systems/1/LogServices",
  "/redfish/v1/Systems/1/LogServices/SEL",
];

export type XccMockup = DriverMockup<TestXccDriver>;

/** A mockup XCC with the package's behaviors; `createDriver()` makes a {@link TestXccDriver} for it. */
export function xccMockup(
  root: string,
  options: Partial<DriverMockupOptions<TestXccDriver>> = {},
): XccMockup {
  return new DriverMockup({
    driver: (client, context) => new TestXccDriver(client, context),
    mockup: root,
    behaviors: XCC_BEHAVIORS,
    resetPaths: MUTABLE_PATHS,
    ...options,
  });
}
