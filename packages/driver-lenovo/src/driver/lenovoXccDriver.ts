import { setTimeout as sleep } from "node:timers/promises";
import {
  type AccountInfo,
  type AccountRole,
  attributeDiffs,
  type BiosAttributes,
  type BootOptionInfo,
  BootOptionNotFoundError,
  type BootOrderInfo,
  type BootTarget,
  type EventLogQuery,
  InvalidArgumentError,
  type JobRef,
  type LogEntryInfo,
  type MachineSetupOptions,
  type MachineSetupResult,
  type MachineSetupStatus,
  moveToFront,
  type PasswordPolicy,
  type PowerAction,
  RedfishStandard,
  requireMac,
  resolveBiosProfile,
  type SettingDiff,
  type TriStateStatus,
  toBootOptionInfo,
  triState,
} from "@racksmith/core";
import {
  type Bios,
  type BootOption,
  type ComputerSystem,
  type EthernetInterface,
  lastSegment,
  type Manager,
  type RedfishObject,
} from "@racksmith/core/redfish";
import { xccPasswordPolicyPatch } from "../accounts/index.js";
import {
  machineSetupPlan,
  SERIAL_CONSOLE_ATTRIBUTES,
  serialConsoleFlags,
  TPM_CLEAR_ATTRIBUTES,
} from "../bios/index.js";
import {
  bootSequence,
  dpuEntry,
  findGroupOption,
  firstHttpEntry,
  groupOfTarget,
  isDpuEntry,
  NETWORK_BOOT_ORDER_ID,
  type NetworkBootOrder,
  parseNetworkBootOrder,
} from "../boot/index.js";
import { dottedVersion, isRestartQuirkSku, restartCutsDpuPower } from "../firmware/index.js";
import {
  frontUsbOf,
  hasLockdownSettings,
  type LockdownSnapshot,
  lockdownStatusOf,
  lockdownWrites,
} from "../lockdown/index.js";
import { bmcLogService, systemLogService } from "../logs/index.js";
import { httpStatusOf, lenovoOem, linkOf, oemActionOf, settingsObjectOf } from "./redfishObjects.js";
import { withSecretsScrubbed } from "./scrubSecrets.js";

/** How long the host stays off when a ForceRestart has to be sent as ForceOff + On. */
const RESTART_OFF_MS = 10_000;

/** Our boot targets as `BootSourceOverrideTarget` values. */
const OVERRIDE_TARGET: Readonly<Record<BootTarget, string>> = {
  pxe: "Pxe",
  hdd: "Hdd",
  uefiHttp: "UefiHttp",
};

/**
 * Lenovo ThinkSystem servers managed by an XClarity Controller (XCC, XCC2). Differences from the standard:
 * BIOS and boot order changes are staged in ETag-protected `Pending` settings objects; boot options are
 * groups, with the network group's devices ordered by an OEM resource; lockdown, AC power cycle, password
 * expiry and the audit log are OEM. Model and firmware differences are detected from what the BMC reports.
 */
export class LenovoXccDriver extends RedfishStandard {
  override readonly name = "lenovo";

  // ---- settings objects -------------------------------------------------------------------------------

  /** XCC answers 428 to an unconditional write of an account or a `Pending` object: send its ETag. */
  protected async patchWithEtag(path: string, body: RedfishObject): Promise<void> {
    const etag = await this.client.getResponse(path).then(
      (response) => response.etag,
      (error: unknown) => {
        // A settings object the firmware materialises on first write has no ETag yet.
        if (httpStatusOf(error) === 404) return undefined;
        throw error;
      },
    );
    await this.client.patch(path, body, { ifMatch: etag ? { etag } : "*" });
  }

  /** A resource the firmware may not have (undefined on 404). */
  protected async readOptional<T extends RedfishObject>(path: string): Promise<T | undefined> {
    try {
      return await this.client.get<T>(path);
    } catch (error) {
      if (httpStatusOf(error) === 404) return undefined;
      throw error;
    }
  }

  // ---- power ------------------------------------------------------------------------------------------

  override async power(action: PowerAction): Promise<void> {
    if (action === "ACPowercycle") return this.acPowerCycle();
    if (action === "ForceRestart" && (await this.restartCutsDpuPower())) return this.restartThroughOff();
    return super.power(action);
  }

  /** XCC removes auxiliary power through its OEM `SystemReset` action. */
  private async acPowerCycle(): Promise<void> {
    const system = await this.system();
    const action = oemActionOf(system, "#LenovoComputerSystem.SystemReset");
    if (!action?.target) {
      this.notSupported("power ACPowercycle", "the system has no #LenovoComputerSystem.SystemReset action");
    }
    const allowed = action["ResetType@Redfish.AllowableValues"];
    if (Array.isArray(allowed) && !allowed.includes("ACPowerCycle")) {
      this.notSupported("power ACPowercycle", `SystemReset allows only ${allowed.join(", ")}`);
    }
    await this.client.post(action.target, { ResetType: "ACPowerCycle" });
  }

  private async restartCutsDpuPower(): Promise<boolean> {
    const system = await this.system();
    if (!isRestartQuirkSku(system.SKU)) return false;
    return restartCutsDpuPower(system.SKU, await this.firmwareVersions(system));
  }

  private async restartThroughOff(): Promise<void> {
    if ((await this.powerState()) !== "Off") {
      await super.power("ForceOff");
      await this.pause(RESTART_OFF_MS);
    }
    await super.power("On");
  }

  /** Waits between ForceOff and On (a seam for tests). */
  protected async pause(ms: number): Promise<void> {
    await sleep(ms);
  }

  /** UEFI and XCC `major.minor` versions, for firmware-specific workarounds. */
  protected async firmwareVersions(
    system: ComputerSystem,
  ): Promise<{ uefi: string | undefined; bmc: string | undefined }> {
    const [manager, inventory] = await Promise.all([this.manager(), this.firmwareInventory()]);
    const uefi = inventory.find((item) => item.id === "UEFI")?.version;
    return {
      uefi: dottedVersion(uefi) ?? dottedVersion(system.BiosVersion),
      bmc: dottedVersion(manager.FirmwareVersion),
    };
  }

  // ---- boot -------------------------------------------------------------------------------------------

  /** Boot groups and, inside the network group, its devices: the order the next boot follows. */
  override async bootOptions(): Promise<BootOrderInfo> {
    const system = await this.system();
    const [groups, groupOrder, network] = await Promise.all([
      this.bootGroups(system),
      this.nextGroupOrder(system),
      this.networkBootOrder(system),
    ]);
    return bootSequence(groupOrder, groups, network);
  }

  override async bootFirst(target: BootTarget): Promise<void> {
    const system = await this.system();
    const group = findGroupOption(await this.bootGroups(system), groupOfTarget(target));
    // Firmware that lists devices instead of groups is ordered the standard way.
    if (!group) return super.bootFirst(target);
    if (target === "uefiHttp") {
      const network = await this.networkBootOrder(system);
      const entry = network && firstHttpEntry(network);
      if (!network || !entry) {
        throw new BootOptionNotFoundError("UEFI HTTP boot", { available: network?.supported ?? [] });
      }
      await this.networkEntryFirst(network, entry);
    }
    await this.groupFirst(system, group);
  }

  override async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    const wanted = requireMac(mac);
    const system = await this.system();
    const network = await this.networkBootOrder(system);
    if (!network) return super.setBootOrderDpuFirst(mac);
    const entry = dpuEntry(network, wanted);
    if (!entry) {
      throw new BootOptionNotFoundError(`HTTP IPv4 boot from ${wanted}`, { available: network.supported });
    }
    await this.networkEntryFirst(network, entry);
    const group = findGroupOption(await this.bootGroups(system), "network");
    if (group) await this.groupFirst(system, group);
    return undefined;
  }

  override async isBootOrderDpuFirst(mac: string): Promise<boolean> {
    const wanted = requireMac(mac);
    return (await this.bootDiffs(await this.system(), wanted)).length === 0;
  }

  /** XCC has no UEFI HTTP override target; the mode is not sent (XCC boots UEFI only). */
  protected override async setBootOverride(
    target: BootTarget,
    enabled: "Once" | "Continuous",
  ): Promise<void> {
    const boot = (await this.system()).Boot;
    const operation = `boot ${enabled === "Once" ? "once" : "first"} ${target}`;
    const value = OVERRIDE_TARGET[target];
    const allowed = boot?.["BootSourceOverrideTarget@Redfish.AllowableValues"];
    if (!boot || (Array.isArray(allowed) && !allowed.includes(value))) {
      this.notSupported(operation, `the XCC allows override targets ${allowed?.join(", ") ?? "(none)"}`);
    }
    await this.client.patch(await this.systemPath(), {
      Boot: { BootSourceOverrideEnabled: enabled, BootSourceOverrideTarget: value },
    });
  }

  /** Writes the group order to `Systems/{s}/Pending` (applied at the next boot), else to the system. */
  protected override async setBootOrder(order: string[]): Promise<void> {
    const pending = settingsObjectOf(await this.system());
    const body = { Boot: { BootOrder: order } };
    if (pending) await this.patchWithEtag(pending, body);
    else await this.client.patch(await this.systemPath(), body);
  }

  private async bootGroups(system: ComputerSystem): Promise<BootOptionInfo[]> {
    const link = system.Boot?.BootOptions?.["@odata.id"];
    return link ? (await this.members<BootOption>(link)).map(toBootOptionInfo) : [];
  }

  /** The group order of the next boot: the staged one when XCC has a pending object, else the current. */
  private async nextGroupOrder(system: ComputerSystem): Promise<string[]> {
    const pendingPath = settingsObjectOf(system);
    const pending = pendingPath ? await this.readOptional<ComputerSystem>(pendingPath) : undefined;
    return pending?.Boot?.BootOrder ?? system.Boot?.BootOrder ?? [];
  }

  private async networkBootOrder(system: ComputerSystem): Promise<NetworkBootOrder | undefined> {
    const link = linkOf(lenovoOem(system)?.BootSettings);
    if (!link) return undefined;
    const path = (await this.client.listMembers(link)).find(
      (id) => lastSegment(id) === NETWORK_BOOT_ORDER_ID,
    );
    return path ? parseNetworkBootOrder(path, await this.client.get(path)) : undefined;
  }

  private async groupFirst(system: ComputerSystem, group: BootOptionInfo): Promise<void> {
    const order = await this.nextGroupOrder(system);
    if (order[0] !== group.reference) await this.setBootOrder(moveToFront(order, group.reference));
  }

  private async networkEntryFirst(network: NetworkBootOrder, entry: string): Promise<void> {
    if (network.next[0] === entry) return;
    await this.client.patch(network.path, { BootOrderNext: moveToFront(network.next, entry) });
  }

  /** What differs from a next boot that starts with the network group (and, given a MAC, with its DPU). */
  private async bootDiffs(system: ComputerSystem, mac: string | undefined): Promise<SettingDiff[]> {
    const [groups, groupOrder, network] = await Promise.all([
      this.bootGroups(system),
      this.nextGroupOrder(system),
      this.networkBootOrder(system),
    ]);
    if (!network && mac) {
      const first = await super.isBootOrderDpuFirst(mac);
      return first ? [] : [{ key: "Boot.BootOrder[0]", expected: `boot from ${mac}`, actual: "other" }];
    }
    const diffs: SettingDiff[] = [];
    const group = findGroupOption(groups, "network");
    if (group && groupOrder[0] !== group.reference) {
      const first = groups.find((option) => option.reference === groupOrder[0]);
      diffs.push({
        key: "Boot.BootOrder[0]",
        expected: group.displayName,
        actual: first?.displayName ?? groupOrder[0] ?? "(empty)",
      });
    }
    const entry = network?.next[0];
    if (mac && !(entry && isDpuEntry(entry, mac))) {
      diffs.push({
        key: `${NETWORK_BOOT_ORDER_ID}.BootOrderNext[0]`,
        expected: `HTTP IPv4 boot from ${mac}`,
        actual: entry ?? "(empty)",
      });
    }
    return diffs;
  }

  // ---- BIOS -------------------------------------------------------------------------------------------

  protected override async biosSettingsPath(): Promise<string> {
    const biosPath = await this.biosPath();
    return settingsObjectOf(await this.client.get<Bios>(biosPath)) ?? `${biosPath}/Pending`;
  }

  /** Stages attributes in `Bios/Pending`; XCC applies them at the next boot. */
  protected async stageBios(attributes: BiosAttributes): Promise<void> {
    await this.patchWithEtag(await this.biosSettingsPath(), { Attributes: attributes });
  }

  override async setBios(attributes: BiosAttributes): Promise<JobRef | undefined> {
    if (Object.keys(attributes).length === 0) throw new InvalidArgumentError("no BIOS attributes to set");
    await this.stageBios(attributes);
    return undefined;
  }

  /** Redfish cannot discard pending settings: stage the current value of each pending attribute instead. */
  override async clearPendingBios(): Promise<void> {
    const [pending, current] = await Promise.all([this.pendingBios(), this.bios()]);
    const keys = Object.keys(pending);
    if (keys.length > 0)
      await this.stageBios(Object.fromEntries(keys.map((key) => [key, current[key] ?? null])));
  }

  override async resetBios(): Promise<void> {
    const bios = await this.client.get<Bios>(await this.biosPath());
    const target = this.actionTarget(bios, "#Bios.ResetBios");
    if (!target) this.notSupported("bios reset", "the Bios resource has no #Bios.ResetBios action");
    await this.client.post(target, { ResetType: "Reset" });
  }

  override async clearTpm(): Promise<void> {
    await this.stageBios({ ...TPM_CLEAR_ATTRIBUTES });
  }

  override async machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult> {
    const [system, current] = await Promise.all([this.system(), this.bios()]);
    const plan = machineSetupPlan(current, this.biosProfileFor(system, options));
    if (plan.skipped.length > 0) {
      this.logger.warn(
        { model: system.Model, skipped: plan.skipped },
        "this XCC BIOS has no such attributes; machine setup leaves them out",
      );
    }
    await this.stageBios(plan.staged);
    if (options.bootInterfaceMac) await this.setBootOrderDpuFirst(options.bootInterfaceMac);
    else await this.bootFirst("pxe");
    return { rebootRequired: true };
  }

  override async machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    const [system, current] = await Promise.all([this.system(), this.bios()]);
    const plan = machineSetupPlan(current, this.biosProfileFor(system, options));
    const mac = options.bootInterfaceMac === undefined ? undefined : requireMac(options.bootInterfaceMac);
    const diffs = [...attributeDiffs(plan.expected, current), ...(await this.bootDiffs(system, mac))];
    return { done: diffs.length === 0, diffs };
  }

  /** The explicit profile, else the operator's profile for this model from `drivers.lenovo.biosProfiles`. */
  private biosProfileFor(system: ComputerSystem, options: MachineSetupOptions): BiosAttributes {
    return options.biosProfile ?? resolveBiosProfile(this.context.settings, system.Model) ?? {};
  }

  override async changeUefiPassword(
    currentPassword: string,
    newPassword: string,
  ): Promise<JobRef | undefined> {
    const bios = await this.client.get<Bios>(await this.biosPath());
    const target = this.actionTarget(bios, "#Bios.ChangePassword");
    if (!target) this.notSupported("UEFI password", "the Bios resource has no #Bios.ChangePassword action");
    // XCC names its passwords UefiAdminPassword / UefiPowerOnPassword, not the DMTF AdministratorPassword.
    const names = await this.allowableValues(bios, "#Bios.ChangePassword", "PasswordName");
    const body = {
      PasswordName: names?.find((name) => /admin/i.test(name)) ?? "UefiAdminPassword",
      OldPassword: currentPassword,
      NewPassword: newPassword,
    };
    await withSecretsScrubbed([currentPassword, newPassword], () => this.client.post(target, body));
    return undefined;
  }

  // ---- lockdown ---------------------------------------------------------------------------------------

  override async setLockdown(enabled: boolean): Promise<void> {
    const snapshot = await this.lockdownSnapshot();
    // Sequential on purpose: the order is the one XCC is known to accept.
    for (const write of lockdownWrites(snapshot, enabled)) {
      this.logger.debug({ setting: write.setting, path: write.path, lock: enabled }, "XCC lockdown write");
      await this.client.patch(write.path, write.body);
    }
  }

  override async lockdownStatus(): Promise<TriStateStatus> {
    return lockdownStatusOf(await this.lockdownSnapshot());
  }

  private async lockdownSnapshot(): Promise<LockdownSnapshot> {
    const [manager, system, managerPath, systemPath] = await Promise.all([
      this.manager(),
      this.system(),
      this.managerPath(),
      this.systemPath(),
    ]);
    const managerOem = lenovoOem(manager);
    const securityPath = linkOf(managerOem?.Security) ?? `${managerPath}/Oem/Lenovo/Security`;
    const [security, usbLan] = await Promise.all([this.readOptional(securityPath), this.hostUsbLan(manager)]);
    const rollback = (security?.Configurator as RedfishObject | undefined)?.FWRollback;
    const kcs = managerOem?.KCSEnabled;
    const frontUsb = frontUsbOf(lenovoOem(system));
    const snapshot: LockdownSnapshot = {
      managerPath,
      systemPath,
      ...(typeof kcs === "boolean" || typeof kcs === "string" ? { kcs } : {}),
      ...(typeof rollback === "string" ? { firmwareRollback: { path: securityPath, value: rollback } } : {}),
      ...(usbLan ? { hostUsbLan: usbLan } : {}),
      ...(frontUsb ? { frontUsb } : {}),
    };
    if (!hasLockdownSettings(snapshot)) {
      this.notSupported("lockdown", "this XCC has none of KCSEnabled, FWRollback, ToHost, FrontPanelUSB");
    }
    return snapshot;
  }

  /** The XCC's USB LAN to the host (`EthernetInterfaces/ToHost`). */
  private async hostUsbLan(manager: Manager): Promise<{ path: string; enabled: boolean } | undefined> {
    const link = manager.EthernetInterfaces?.["@odata.id"];
    const path = link && (await this.client.listMembers(link)).find((id) => lastSegment(id) === "ToHost");
    const usbLan = path ? await this.client.get<EthernetInterface>(path) : undefined;
    return path && typeof usbLan?.InterfaceEnabled === "boolean"
      ? { path, enabled: usbLan.InterfaceEnabled }
      : undefined;
  }

  // ---- serial console ---------------------------------------------------------------------------------

  /** Stages COM1 redirection shared with the XCC (applied at the next boot) and turns on the XCC's SOL. */
  override async setupSerialConsole(): Promise<void> {
    await this.stageBios({ ...SERIAL_CONSOLE_ATTRIBUTES });
    const manager = await this.manager();
    if (manager.SerialConsole?.ServiceEnabled === false) {
      await this.client.patch(await this.managerPath(), { SerialConsole: { ServiceEnabled: true } });
    }
  }

  /** From the BIOS in effect (not what is staged) and the XCC's serial console service. */
  override async serialConsoleStatus(): Promise<TriStateStatus> {
    const [current, pending, manager] = await Promise.all([this.bios(), this.pendingBios(), this.manager()]);
    const flags = serialConsoleFlags(current);
    const service = manager.SerialConsole?.ServiceEnabled;
    if (typeof service === "boolean") flags.push(["XCC serial console service", service]);
    const status = triState(flags);
    const staged = Object.keys(SERIAL_CONSOLE_ATTRIBUTES).filter((key) => key in pending);
    return staged.length > 0
      ? { ...status, message: `${status.message}; staged for the next boot: ${staged.join(", ")}` }
      : status;
  }

  // ---- accounts ---------------------------------------------------------------------------------------

  override async createAccount(userName: string, password: string, role: AccountRole): Promise<AccountInfo> {
    return withSecretsScrubbed([password], () => super.createAccount(userName, password, role));
  }

  /** The standard PATCH with the account's ETag (XCC answers 428 without it), with the password kept out of errors. */
  override async changePassword(userName: string, newPassword: string): Promise<void> {
    await withSecretsScrubbed([newPassword], () => super.changePassword(userName, newPassword));
  }

  override async setPasswordPolicy(policy: PasswordPolicy): Promise<void> {
    const service = await this.accountService();
    await this.client.patch(
      service["@odata.id"] ?? "/redfish/v1/AccountService",
      xccPasswordPolicyPatch(policy),
    );
  }

  // ---- event logs -------------------------------------------------------------------------------------

  override async systemEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const service = systemLogService(await this.logServices("system"));
    if (service === "empty") return [];
    if (!service) this.notSupported("system event log", "the system has neither a SEL nor a PlatformLog");
    return this.readLog(service, query);
  }

  /** XCC links its manager's log services to the system's collection, where `AuditLog` lives. */
  override async bmcEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const lists = await Promise.all([this.logServices("manager"), this.logServices("system")]);
    const service = bmcLogService(lists.flat());
    if (!service) this.notSupported("BMC event log", "the XCC publishes no AuditLog entries");
    return this.readLog(service, query);
  }
}
