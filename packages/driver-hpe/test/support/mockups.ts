import { fileURLToPath } from "node:url";
import { DriverMockup, type DriverMockupOptions } from "@racksmith/testkit";
import { hpeDriverDefinition } from "../../src/index.js";
import { hpeMockupBehaviors } from "../../src/testing/index.js";

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** The package's own mockups: an iLO 5 (AMD) and an iLO 6 (Intel) ProLiant. */
export const MOCKUPS = {
  gen10: fileURLToPath(new URL("../../mockups/proliant-dl385-gen10-plus-v2", import.meta.url)),
  gen11: fileURLToPath(new URL("../../mockups/proliant-dl380-gen11", import.meta.url)),
} as const;

/** The serial console settings the driver writes to an iLO's BIOS (iLO virtual serial port on COM1). */
export const SERIAL_CONSOLE = {
  EmbeddedSerialPort: "Com2Irq3",
  EmsConsole: "Virtual",
  SerialConsoleBaudRate: "BaudRate115200",
  SerialConsoleEmulation: "Vt100Plus",
  SerialConsolePort: "Virtual",
  UefiSerialDebugLevel: "ErrorsOnly",
  VirtualSerialPort: "Com1Irq4",
};

/** The iLO 5 mockup's network boot entries (OCP adapter, then the BlueField in slot 1), in its order. */
export const GEN10_NETWORK_ENTRIES = [
  "OCP.Slot.10.1.IPv4",
  "OCP.Slot.10.1.Httpv4",
  "NIC.Slot.1.1.IPv4",
  "NIC.Slot.1.1.Httpv4",
  "NIC.Slot.1.1.IPv6",
  "NIC.Slot.1.1.Httpv6",
];

/** Resources the driver writes; `reset()` restores them between tests. */
const CHANGED_BY_TESTS = [
  "/redfish/v1/Systems/1",
  "/redfish/v1/Systems/1/Bios",
  "/redfish/v1/Systems/1/Bios/settings",
  "/redfish/v1/Systems/1/Bios/oem/hpe/boot",
  "/redfish/v1/Systems/1/Bios/oem/hpe/boot/settings",
  "/redfish/v1/Managers/1",
  "/redfish/v1/Managers/1/NetworkProtocol",
  "/redfish/v1/AccountService",
  "/redfish/v1/UpdateService",
];

/** The hpe driver on one of the mockups, with the HPE behaviors (a reboot applies staged BIOS and boot order). */
export function hpeMockup(root: string, options: Partial<DriverMockupOptions> = {}): DriverMockup {
  return new DriverMockup({
    driver: hpeDriverDefinition,
    mockup: root,
    behaviors: hpeMockupBehaviors,
    resetPaths: CHANGED_BY_TESTS,
    ...options,
  });
}

/** A field deep inside a JSON resource (tests read state back from the mockup). */
export { field as at } from "../../src/testing/json.js";
