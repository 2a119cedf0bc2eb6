import { InvalidArgumentError } from "@racksmith/core";

/** Where this BMC's updatable components live. */
export interface FirmwareTargetPaths {
  systemPath: string;
  managerPath: string;
  firmwareInventoryPath: string;
}

// Component names (NICo's ComponentType and Supermicro's inventory ids) → the Targets URI Supermicro wants.
const COMPONENT_TARGETS: Readonly<Record<string, (paths: FirmwareTargetPaths) => string>> = {
  bios: (p) => `${p.systemPath}/Bios`,
  uefi: (p) => `${p.systemPath}/Bios`,
  bmc: (p) => p.managerPath,
  cpldmb: (p) => `${p.firmwareInventoryPath}/CPLD_Motherboard`,
  cpld_motherboard: (p) => `${p.firmwareInventoryPath}/CPLD_Motherboard`,
  cpldmid: (p) => `${p.firmwareInventoryPath}/CPLD_Backplane_1`,
  cpld_backplane_1: (p) => `${p.firmwareInventoryPath}/CPLD_Backplane_1`,
};

/** The one Targets URI of a multipart upload: a component name or a `/redfish/v1/…` URI. */
export function multipartTarget(targets: readonly string[] | undefined, paths: FirmwareTargetPaths): string {
  if (targets?.length !== 1) {
    throw new InvalidArgumentError(
      `a Supermicro multipart update takes exactly one target (BIOS, BMC, CPLD_Motherboard, CPLD_Backplane_1 or a /redfish/v1 URI), got ${targets?.length ?? 0}`,
    );
  }
  const [target] = targets as [string];
  const byName = COMPONENT_TARGETS[target.toLowerCase()];
  if (byName) return byName(paths);
  if (target.startsWith("/redfish/v1/")) return target;
  throw new InvalidArgumentError(
    `unknown firmware target ${JSON.stringify(target)}: use ${Object.keys(COMPONENT_TARGETS).join(", ")} or a /redfish/v1 URI`,
  );
}

/**
 * The `UpdateParameters` part: BIOS updates keep ME, NVRAM and SMBIOS (no backup copy); BMC updates keep
 * the configuration, SDR and SSL certificate and back the running image up.
 */
export function multipartUpdateParameters(
  target: string,
  paths: FirmwareTargetPaths,
  applyTime: "Immediate" | "OnReset",
): Record<string, unknown> {
  const oem =
    target === `${paths.systemPath}/Bios`
      ? { BIOS: { PreserveME: true, PreserveNVRAM: true, PreserveSMBIOS: true, BackupBIOS: false } }
      : target === paths.managerPath
        ? { BMC: { PreserveCfg: true, PreserveSdr: true, PreserveSsl: true, BackupBMC: true } }
        : undefined;
  return {
    Targets: [target],
    "@Redfish.OperationApplyTime": applyTime,
    ...(oem ? { Oem: { Supermicro: oem } } : {}),
  };
}
