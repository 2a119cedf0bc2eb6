import { NotSupportedError, type TriStateStatus } from "@racksmith/core";
import type { ComputerSystem, Manager } from "@racksmith/core/redfish";
import { type BmcAccess, isNotFound, oemLink } from "../bmc/index.js";
import {
  firmwareAtLeast,
  IPMI_HOST_INTERFACE_MIN_FIRMWARE,
  isMgxC2,
  keepsHostInterfaceOn,
} from "../models/index.js";
import type { HostInterface, KcsInterface, SupermicroSystemExtras, SysLockdown } from "../oem/index.js";
import {
  hostInterfaceSetting,
  ipmiHostInterfaceSetting,
  kcsPrivilegeSetting,
  type LockdownSetting,
  lockdownStatusOf,
  sysLockdownSetting,
} from "./lockdownState.js";

/** In-band IPMI from the host: KCS on x86 boards, an on/off switch on MGX C2, or nothing to lock. */
type InbandIpmi =
  | { kind: "kcs"; path: string; privilege: string | undefined }
  | { kind: "ipmiHostInterface"; enabled: boolean | undefined }
  | { kind: "unavailable"; reason: string };

/** Everything lockdown reads and writes, read once per call. */
interface LockdownResources {
  sysLockdownPath: string;
  sysLockdownEnabled: boolean | undefined;
  inband: InbandIpmi;
  hostInterfaces: Array<{ path: string; enabled: boolean | undefined }>;
  /** ARS-121L-DNR: the host interface stays on (it cannot network-boot without it). */
  keepHostInterface: boolean;
}

/**
 * Supermicro lockdown: the Redfish host interface, in-band IPMI (KCS privilege, or IPMIHostInterface on
 * MGX C2) and System Lockdown (`Oem/Supermicro/SysLockdown`), which makes the BMC refuse other changes.
 */
export class SystemLockdown {
  constructor(private readonly bmc: BmcAccess) {}

  /**
   * Enable: host interface off, in-band IPMI to Callback, System Lockdown on last. Disable: the reverse, System
   * Lockdown off first. Settings already right are not written.
   */
  async set(enabled: boolean): Promise<void> {
    const lockdown = await this.read();
    const others = this.otherWrites(lockdown, enabled);
    const unlockFirst = !enabled || others.length > 0;
    if (unlockFirst && lockdown.sysLockdownEnabled !== false) {
      await this.setSysLockdown(lockdown.sysLockdownPath, false);
    }
    for (const write of enabled ? others : [...others].reverse()) await write();
    if (enabled && (unlockFirst || lockdown.sysLockdownEnabled !== true)) {
      await this.setSysLockdown(lockdown.sysLockdownPath, true);
    }
  }

  async status(): Promise<TriStateStatus> {
    const lockdown = await this.read();
    const settings: LockdownSetting[] = [sysLockdownSetting(lockdown.sysLockdownEnabled)];
    const { inband } = lockdown;
    if (inband.kind === "kcs") settings.push(kcsPrivilegeSetting(inband.privilege));
    if (inband.kind === "ipmiHostInterface") settings.push(ipmiHostInterfaceSetting(inband.enabled));
    if (!lockdown.keepHostInterface && lockdown.hostInterfaces.length) {
      settings.push(hostInterfaceSetting(lockdown.hostInterfaces.map((h) => h.enabled)));
    }
    return lockdownStatusOf(settings);
  }

  /** The writes besides System Lockdown, in enable order (host interface, then in-band IPMI). */
  private otherWrites(lockdown: LockdownResources, enabled: boolean): Array<() => Promise<unknown>> {
    const { client } = this.bmc;
    const writes: Array<() => Promise<unknown>> = [];
    if (!lockdown.keepHostInterface) {
      for (const hostInterface of lockdown.hostInterfaces.filter((h) => h.enabled !== !enabled)) {
        writes.push(() => client.patch(hostInterface.path, { InterfaceEnabled: !enabled }));
      }
    }
    const { inband } = lockdown;
    const privilege = enabled ? "Callback" : "Administrator";
    if (inband.kind === "kcs" && inband.privilege !== privilege) {
      writes.push(() => client.patch(inband.path, { Privilege: privilege }));
    }
    if (inband.kind === "ipmiHostInterface" && inband.enabled !== !enabled) {
      writes.push(async () =>
        client.patch(await this.bmc.systemPath(), { IPMIHostInterface: { ServiceEnabled: !enabled } }),
      );
    }
    if (inband.kind === "unavailable")
      this.bmc.logger.warn({ reason: inband.reason }, "in-band IPMI left as is");
    return writes;
  }

  private async setSysLockdown(path: string, enabled: boolean): Promise<void> {
    await this.bmc.client.patch(path, { SysLockdownEnabled: enabled });
  }

  private async read(): Promise<LockdownResources> {
    const [manager, system, managerPath] = await Promise.all([
      this.bmc.manager(),
      this.bmc.system(),
      this.bmc.managerPath(),
    ]);
    const sysLockdownPath = oemLink(manager, "SysLockdown") ?? `${managerPath}/Oem/Supermicro/SysLockdown`;
    const sysLockdown = await this.bmc.client.get<SysLockdown>(sysLockdownPath).catch((error: unknown) => {
      if (isNotFound(error)) {
        throw new NotSupportedError(
          "lockdown",
          "the BMC has no Oem/Supermicro/SysLockdown (firmware or license without it)",
        );
      }
      throw error;
    });
    const hostInterfacesLink = (manager.HostInterfaces as { "@odata.id"?: string } | undefined)?.[
      "@odata.id"
    ];
    const hostInterfaces = hostInterfacesLink
      ? (await this.bmc.members<HostInterface>(hostInterfacesLink)).map((h) => ({
          path: h["@odata.id"] ?? "",
          enabled: h.InterfaceEnabled,
        }))
      : [];
    return {
      sysLockdownPath,
      sysLockdownEnabled: sysLockdown.SysLockdownEnabled,
      inband: await this.inbandIpmi(manager, system, managerPath),
      hostInterfaces,
      keepHostInterface: keepsHostInterfaceOn(system.Model),
    };
  }

  private async inbandIpmi(
    manager: Manager,
    system: ComputerSystem,
    managerPath: string,
  ): Promise<InbandIpmi> {
    const advertised = oemLink(manager, "KCSInterface");
    if (!advertised && isMgxC2(await this.bmc.allChassis())) {
      if (!firmwareAtLeast(manager.FirmwareVersion, IPMI_HOST_INTERFACE_MIN_FIRMWARE)) {
        return {
          kind: "unavailable",
          reason: `MGX C2 BMC firmware ${manager.FirmwareVersion ?? "(unknown)"} predates IPMIHostInterface (${IPMI_HOST_INTERFACE_MIN_FIRMWARE})`,
        };
      }
      const extras = system as ComputerSystem & SupermicroSystemExtras;
      return { kind: "ipmiHostInterface", enabled: extras.IPMIHostInterface?.ServiceEnabled };
    }
    const path = advertised ?? `${managerPath}/Oem/Supermicro/KCSInterface`;
    try {
      return { kind: "kcs", path, privilege: (await this.bmc.client.get<KcsInterface>(path)).Privilege };
    } catch (error) {
      if (isNotFound(error)) return { kind: "unavailable", reason: "the BMC has no KCSInterface" };
      throw error;
    }
  }
}
