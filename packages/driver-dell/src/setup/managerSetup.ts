import { type AttributeMap, type AttributeValues, type SettingCheck, textOf } from "./checks.js";

/** What the serial console needs from the iDRAC: SSH, serial redirection, IPMI over LAN and SOL at 115200. */
export const REMOTE_ACCESS: AttributeValues = {
  "SSH.1.Enable": "Enabled",
  "SerialRedirection.1.Enable": "Enabled",
  "IPMILan.1.Enable": "Enabled",
  "IPMISOL.1.Enable": "Enabled",
  "IPMISOL.1.BaudRate": "115200",
  "IPMISOL.1.MinPrivilege": "Administrator",
};

const SWITCHES = ["SSH.1.Enable", "SerialRedirection.1.Enable", "IPMILan.1.Enable", "IPMISOL.1.Enable"];

/** Remote access status checks: the switches are on or off; baud rate and privilege only matter when on. */
export function remoteAccessChecks(attributes: AttributeMap): SettingCheck[] {
  return Object.entries(REMOTE_ACCESS).map(([key, value]) => ({
    key,
    actual: textOf(attributes[key]),
    on: [value],
    ...(SWITCHES.includes(key) ? { off: ["Disabled"] } : {}),
  }));
}

/** iDRAC settings machine setup adds; OS-BMC passthrough only exists up to iDRAC 9. */
export function machineSetupOemAttributes(current: AttributeMap): AttributeValues {
  return {
    "WebServer.1.HostHeaderCheck": "Disabled",
    "IPMILan.1.Enable": "Enabled",
    ...("OS-BMC.1.AdminState" in current ? { "OS-BMC.1.AdminState": "Disabled" } : {}),
  };
}
