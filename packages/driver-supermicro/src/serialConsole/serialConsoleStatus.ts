import { type TriStateStatus, triState } from "@racksmith/core";
import type { ComputerSystem } from "@racksmith/core/redfish";
import type { SerialInterface } from "../oem/index.js";

// The port settings Serial-over-LAN needs: Supermicro's factory defaults, which Redfish cannot change.
const SOL_PORT_DEFAULTS: Readonly<Partial<Record<keyof SerialInterface, string>>> = {
  SignalType: "Rs232",
  BitRate: "115200",
  Parity: "None",
  DataBits: "8",
  StopBits: "1",
  FlowControl: "None",
  ConnectorType: "RJ45",
  PinOut: "Cyclades",
};

/** Port settings that differ from the SOL defaults, as `BitRate=9600`. */
function solPortDifferences(port: SerialInterface): string[] {
  return Object.entries(SOL_PORT_DEFAULTS)
    .filter(([key, value]) => port[key as keyof SerialInterface] !== value)
    .map(([key]) => `${key}=${String(port[key as keyof SerialInterface] ?? "missing")}`);
}

/**
 * SSH serial console on the system with sessions allowed, and (when the manager has one) its SOL serial
 * port enabled at the defaults. Enabled only when every one holds.
 */
export function serialConsoleStatusOf(
  serialConsole: NonNullable<ComputerSystem["SerialConsole"]>,
  port: SerialInterface | undefined,
): TriStateStatus {
  const flags: Array<[string, boolean]> = [
    ["SSH serial console", serialConsole.SSH?.ServiceEnabled === true],
    ["console sessions allowed", serialConsole.MaxConcurrentSessions !== 0],
  ];
  if (port) {
    flags.push(["SOL serial port", port.InterfaceEnabled === true]);
    const differences = solPortDifferences(port);
    flags.push([
      differences.length ? `SOL port defaults (${differences.join(", ")})` : "SOL port defaults",
      differences.length === 0,
    ]);
  }
  return triState(flags);
}
