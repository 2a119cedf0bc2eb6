import {
  type AccountInfo,
  type AccountRole,
  attributeDiffs,
  type BiosAttributes,
  type BootOptionInfo,
  BootOptionNotFoundError,
  type BootTarget,
  diffAttributes,
  type EventLogQuery,
  type FirmwareUpdateRequest,
  hasErrorCode,
  type JobRef,
  type JobStatus,
  type LogEntryInfo,
  type MachineSetupOptions,
  type MachineSetupResult,
  type MachineSetupStatus,
  moveToFront,
  type NetworkAdapterInfo,
  type PasswordPolicy,
  type PowerAction,
  pickLogService,
  RacksmithError,
  RedfishStandard,
  requireMac,
  resolveBiosProfile,
  type SettingDiff,
  type TriStateStatus,
} from "@racksmith/core";
import { type Bios, type Manager, RedfishHttpError, type UpdateService } from "@racksmith/core/redfish";
import { accountServicePatch } from "../accounts/index.js";
import {
  machineSetupAttributes,
  presentIn,
  SERIAL_CONSOLE_ATTRIBUTES,
  type StagedBios,
  stagedSetting,
  TPM_CLEAR_ATTRIBUTES,
  USB_BOOT_ATTRIBUTE,
} from "../bios/index.js";
import { dpuBootSource, isHttpIpv4BootFor, KINDS_FOR, reorderBootEntries } from "../boot/index.js";
import { iloUpdateJob, iloUpdateStatus, isIloUpdateJob } from "../firmware/index.js";
import {
  describeFirmware,
  type HpeBaseNetworkAdapter,
  type HpeManagerOem,
  type HpeNetworkProtocolOem,
  type HpeServerBootSettings,
  type HpeSystemOem,
  hasKcsSetting,
  hpeAction,
  hpeOem,
  iloFirmware,
  type ManagerNetworkProtocol,
} from "../ilo/index.js";
import { mergeAdapters, toBaseAdapterInfo } from "../inventory/index.js";
import { settingsStatus } from "../status/index.js";

/**
 * HPE iLO 5/6 (ProLiant). BIOS changes are staged at `Bios/settings/` and the boot order at iLO's OEM boot
 * resource, both applied by the next boot; lockdown spans the BIOS (USB boot), iLO (virtual NIC) and, from
 * iLO 6 1.40, the host KCS interface. Everything else is the DMTF standard.
 */
export class HpeDriver extends RedfishStandard {
  override readonly name = "hpe";

  // ---- paths ------------------------------------------------------------------------------------------

  /** iLO takes BIOS changes only at `Bios/settings/` (lowercase, trailing slash). */
  protected override async biosSettingsPath(): Promise<string> {
    return `${await this.systemPath()}/Bios/settings/`;
  }

  private async bootSettingsPath(): Promise<string> {
    return `${await this.systemPath()}/Bios/oem/hpe/boot/`;
  }

  private async networkProtocolPath(manager: Manager): Promise<string> {
    return manager.NetworkProtocol?.["@odata.id"] ?? `${await this.managerPath()}/NetworkProtocol`;
  }

  // ---- power ------------------------------------------------------------------------------------------

  override async power(action: PowerAction): Promise<void> {
    if (action === "ACPowercycle") return this.auxPowerCycle();
    // iLO's warm reset is GracefulRestart (NICo sends ForceRestart as GracefulRestart too).
    return super.power(action === "ForceRestart" ? "GracefulRestart" : action);
  }

  /** Host off, then iLO's AuxCycle, which also removes auxiliary power (iLO restarts with it). */
  private async auxPowerCycle(): Promise<void> {
    const system = await this.system();
    const action = hpeAction(system, "#HpeComputerSystemExt.SystemReset");
    const allowed = action?.["ResetType@Redfish.AllowableValues"];
    if (Array.isArray(allowed) && !allowed.includes("AuxCycle")) {
      this.notSupported("power ACPowercycle", `iLO allows only ${allowed.join(", ")} for SystemReset`);
    }
    const target =
      action?.target ?? `${await this.systemPath()}/Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset`;
    if (system.PowerState !== "Off") await super.power("ForceOff");
    await this.client.post(target, { ResetType: "AuxCycle" });
  }

  // ---- boot -------------------------------------------------------------------------------------------

  /** Boot once is boot first on iLO, as in NICo: the persistent order, applied by the next boot. */
  override async bootOnce(target: BootTarget): Promise<void> {
    await this.bootFirst(target);
  }

  /** Moves every entry of the target's kind to the front of iLO's persistent order (staged). */
  override async bootFirst(target: BootTarget): Promise<void> {
    const { order, matched } = reorderBootEntries(await this.bootSettings(), KINDS_FOR[target]);
    if (matched === 0) throw new BootOptionNotFoundError(target);
    await this.stageBootOrder(order);
  }

  /** Puts the DPU port's HTTP IPv4 option first in `Boot.BootOrder` (no job; iLO applies it at boot). */
  override async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    const { wanted, order, dpu } = await this.dpuBootState(mac);
    if (!dpu) throw new BootOptionNotFoundError(`HTTP IPv4 boot from ${wanted}`);
    if (order[0] === dpu.reference) return undefined;
    try {
      await this.setBootOrder(moveToFront(order, dpu.reference));
    } catch (error) {
      if (!refusedDuringPost(error)) throw error;
      // The host is in POST; the lifecycle's isBootOrderDpuFirst poll sees it was not applied and retries.
      this.logger.warn({ mac: wanted }, "iLO refused the boot order change during POST");
    }
    return undefined;
  }

  override async isBootOrderDpuFirst(mac: string): Promise<boolean> {
    const { dpu, first } = await this.dpuBootState(mac);
    return dpu !== undefined && first?.reference === dpu.reference;
  }

  /** The boot order in effect, the DPU port's HTTP IPv4 option (by name and MAC), and the option first. */
  private async dpuBootState(mac: string): Promise<DpuBootState> {
    const wanted = requireMac(mac);
    const { order, options } = await this.bootOptions();
    const dpu = options.find((o) => isHttpIpv4BootFor(o.displayName, o.uefiDevicePath, wanted));
    return { wanted, order, dpu, first: options.find((o) => o.reference === order[0]) };
  }

  private async bootSettings(): Promise<HpeServerBootSettings> {
    const path = await this.bootSettingsPath();
    try {
      return await this.client.get<HpeServerBootSettings>(path);
    } catch (error) {
      if (error instanceof RedfishHttpError && error.httpStatus === 404) {
        this.notSupported("boot order", `this iLO has no OEM boot order resource at ${path}`);
      }
      throw error;
    }
  }

  private async stageBootOrder(order: string[]): Promise<void> {
    await this.client.patch(`${await this.bootSettingsPath()}settings/`, {
      PersistentBootConfigOrder: order,
    });
  }

  // ---- BIOS and machine setup -------------------------------------------------------------------------

  /** Current attributes and the staged ones that differ (iLO's settings object holds a full copy). */
  private async stagedBios(): Promise<StagedBios> {
    const [current, settings] = await Promise.all([
      this.bios(),
      this.biosSettingsPath().then((path) => this.client.get<Bios>(path)),
    ]);
    return { current, pending: diffAttributes(current, settings.Attributes ?? {}) };
  }

  override async pendingBios(): Promise<BiosAttributes> {
    return (await this.stagedBios()).pending;
  }

  private profileFor(options: MachineSetupOptions, model: string | undefined): BiosAttributes {
    return options.biosProfile ?? resolveBiosProfile(this.context.settings, model) ?? {};
  }

  /**
   * Stages, for the next boot: serial console, TPM clear, IOMMU, UEFI NIC boot and the operator profile in
   * one BIOS PATCH, then iLO's persistent boot order with network entries first (the DPU's HTTP IPv4 entry
   * ahead of all when its MAC is given). Both are checked before anything is written.
   */
  override async machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult> {
    const [system, current, boot] = await Promise.all([this.system(), this.bios(), this.bootSettings()]);
    const attributes = machineSetupAttributes(current, this.profileFor(options, system.Model));
    const order = this.setupBootOrder(boot, options.bootInterfaceMac);
    if (attributes.skipped.length > 0) {
      this.logger.warn({ skipped: attributes.skipped }, "this BIOS lacks some machine setup attributes");
    }
    await this.setBios(attributes.apply);
    await this.stageBootOrder(order);
    return { rebootRequired: true };
  }

  private setupBootOrder(boot: HpeServerBootSettings, mac: string | undefined): string[] {
    const wanted = mac === undefined ? undefined : requireMac(mac);
    const dpu = wanted ? dpuBootSource(boot, wanted)?.StructuredBootString : undefined;
    if (wanted && !dpu) throw new BootOptionNotFoundError(`HTTP IPv4 boot from ${wanted}`);
    return reorderBootEntries(boot, KINDS_FOR.network, dpu).order;
  }

  /** What the BMC does not show yet: current (not staged) BIOS values and the boot order in effect. */
  override async machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    const [system, current] = await Promise.all([this.system(), this.bios()]);
    const { verify } = machineSetupAttributes(current, this.profileFor(options, system.Model));
    const diffs = [
      ...attributeDiffs(verify, current),
      ...(await this.bootOrderDiffs(options.bootInterfaceMac)),
    ];
    return { done: diffs.length === 0, diffs };
  }

  private async bootOrderDiffs(mac: string | undefined): Promise<SettingDiff[]> {
    if (mac !== undefined) {
      const { wanted, order, dpu, first } = await this.dpuBootState(mac);
      if (dpu && first?.reference === dpu.reference) return [];
      return [
        {
          key: "BootOrder[0]",
          expected: dpu?.displayName ?? `HTTP IPv4 boot from ${wanted}`,
          actual: first?.displayName ?? order[0] ?? "(empty boot order)",
        },
      ];
    }
    const boot = await this.bootSettings();
    const current = boot.PersistentBootConfigOrder ?? [];
    const { order } = reorderBootEntries(boot, KINDS_FOR.network);
    if (order.join("\n") === current.join("\n")) return [];
    return [
      {
        key: "PersistentBootConfigOrder",
        expected: `network entries first: ${order.slice(0, 3).join(", ")}`,
        actual: current.slice(0, 3).join(", "),
      },
    ];
  }

  // ---- lockdown and serial console --------------------------------------------------------------------

  /** KCS on/off where iLO has the setting (iLO 6 from 1.40) and reports it; undefined elsewhere. */
  private async kcsSetting(manager: Manager): Promise<{ path: string; enabled: boolean } | undefined> {
    const firmware = iloFirmware(manager);
    if (!hasKcsSetting(firmware)) return undefined;
    const path = await this.networkProtocolPath(manager);
    const enabled = hpeOem<HpeNetworkProtocolOem>(await this.client.get(path)).KcsEnabled;
    if (typeof enabled !== "boolean") {
      this.logger.warn({ firmware: describeFirmware(firmware) }, "iLO does not report KcsEnabled");
      return undefined;
    }
    return { path, enabled };
  }

  /**
   * Lock: host KCS off (iLO 6 ≥ 1.40), USB boot off (BIOS, staged), iLO virtual NIC off. Unlock turns all
   * three back on, so an unlocked iLO reads fully disabled.
   */
  override async setLockdown(enabled: boolean): Promise<void> {
    const manager = await this.manager();
    const kcs = await this.kcsSetting(manager);
    if (kcs) await this.client.patch(kcs.path, { Oem: { Hpe: { KcsEnabled: !enabled } } });
    await this.setBios({ [USB_BOOT_ATTRIBUTE]: enabled ? "Disabled" : "Enabled" });
    await this.client.patch(await this.managerPath(), { Oem: { Hpe: { VirtualNICEnabled: !enabled } } });
  }

  /** Counts a staged `UsbBoot` as set (it applies at the next boot); the message says it is staged. */
  override async lockdownStatus(): Promise<TriStateStatus> {
    const manager = await this.manager();
    const [staged, kcs] = await Promise.all([this.stagedBios(), this.kcsSetting(manager)]);
    const virtualNic = hpeOem<HpeManagerOem>(manager).VirtualNICEnabled;
    const status = settingsStatus(
      [
        stagedSetting(staged, USB_BOOT_ATTRIBUTE, "Disabled"),
        typeof virtualNic === "boolean"
          ? { label: `VirtualNICEnabled=${virtualNic}`, ok: !virtualNic }
          : undefined,
        kcs ? { label: `KcsEnabled=${kcs.enabled}`, ok: !kcs.enabled } : undefined,
      ],
      { ok: "locked", notOk: "unlocked" },
    );
    return (
      status ?? this.notSupported("lockdown status", "neither UsbBoot nor VirtualNICEnabled is reported")
    );
  }

  /** The BIOS serial redirection to iLO's virtual serial port (staged), and SSH on iLO to reach it. */
  override async setupSerialConsole(): Promise<void> {
    const { present } = presentIn(await this.bios(), SERIAL_CONSOLE_ATTRIBUTES);
    if (Object.keys(present).length === 0) {
      this.notSupported("serial console setup", "this BIOS has none of iLO's serial console attributes");
    }
    await this.setBios(present);
    const path = await this.networkProtocolPath(await this.manager());
    const protocol = await this.client.get<ManagerNetworkProtocol>(path);
    if (protocol.SSH?.ProtocolEnabled === false) {
      await this.client.patch(path, { SSH: { ProtocolEnabled: true } });
    }
  }

  override async serialConsoleStatus(): Promise<TriStateStatus> {
    const manager = await this.manager();
    const [staged, protocol] = await Promise.all([
      this.stagedBios(),
      this.networkProtocolPath(manager).then((path) => this.client.get<ManagerNetworkProtocol>(path)),
    ]);
    const bios = Object.entries(SERIAL_CONSOLE_ATTRIBUTES).map(([key, value]) =>
      stagedSetting(staged, key, value),
    );
    const ssh = protocol.SSH?.ProtocolEnabled;
    const sshCheck = typeof ssh === "boolean" ? { label: `SSH=${ssh ? "on" : "off"}`, ok: ssh } : undefined;
    const status = bios.some((check) => check !== undefined)
      ? settingsStatus([...bios, sshCheck], { ok: "configured", notOk: "not configured" })
      : undefined;
    return (
      status ??
      this.notSupported("serial console status", "this BIOS has none of iLO's serial console attributes")
    );
  }

  // ---- security ---------------------------------------------------------------------------------------

  /** Staged: the BIOS clears the TPM on the next boot and resets `Tpm2Operation` itself. */
  override async clearTpm(): Promise<void> {
    const { present, missing } = presentIn(await this.bios(), TPM_CLEAR_ATTRIBUTES);
    if (missing.length > 0) this.notSupported("TPM clear", `this BIOS has no ${missing.join(", ")}`);
    await this.setBios(present);
  }

  // ---- accounts ---------------------------------------------------------------------------------------

  /** iLO accounts have no `Enabled` property; `Oem.Hpe.LoginName` is the name iLO displays. */
  override async createAccount(userName: string, password: string, role: AccountRole): Promise<AccountInfo> {
    const link = (await this.accountService()).Accounts?.["@odata.id"];
    if (!link) this.notSupported("create account", "the AccountService has no Accounts collection");
    await this.client.post(link, {
      UserName: userName,
      Password: password,
      RoleId: role,
      Oem: { Hpe: { LoginName: userName } },
    });
    const created = (await this.accounts()).find((account) => account.userName === userName);
    if (!created) {
      throw new RacksmithError(
        "account_not_created",
        "INTERNAL",
        `iLO accepted the account ${JSON.stringify(userName)} but does not list it`,
      );
    }
    return created;
  }

  override async setPasswordPolicy(policy: PasswordPolicy): Promise<void> {
    const patch = accountServicePatch(policy);
    const service = await this.accountService();
    await this.client.patch(service["@odata.id"] ?? "/redfish/v1/AccountService", patch);
  }

  // ---- firmware ---------------------------------------------------------------------------------------

  override async updateFirmware(request: FirmwareUpdateRequest): Promise<JobRef> {
    if (request.method === "httpPush") {
      this.notSupported(
        "firmware HTTP push",
        "iLO's HttpPushUri takes HPE's own multipart form (session key, parameters, file); use simpleUpdate",
      );
    }
    try {
      return await super.updateFirmware(request);
    } catch (error) {
      // iLO 5 starts the flash without a task and reports progress on the UpdateService.
      if (request.method !== "simpleUpdate" || !hasErrorCode(error, "no_task")) throw error;
      return iloUpdateJob((await this.updateService())["@odata.id"] ?? "/redfish/v1/UpdateService");
    }
  }

  override async jobStatus(job: JobRef): Promise<JobStatus> {
    if (isIloUpdateJob(job)) return iloUpdateStatus(await this.client.get<UpdateService>(job.path));
    return super.jobStatus(job);
  }

  // ---- event logs -------------------------------------------------------------------------------------

  /** The Integrated Management Log. */
  override async systemEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const service = pickLogService(await this.logServices("system"), ["IML"]);
    return service ? this.readLog(service, query) : super.systemEventLog(query);
  }

  /** The iLO Event Log. */
  override async bmcEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const service = pickLogService(await this.logServices("manager"), ["IEL"]);
    return service ? this.readLog(service, query) : super.bmcEventLog(query);
  }

  // ---- inventory --------------------------------------------------------------------------------------

  /** Chassis adapters, plus the adapters only iLO 5's `BaseNetworkAdapters` lists (OCP, LOM). */
  override async networkAdapters(): Promise<NetworkAdapterInfo[]> {
    const [chassisAdapters, baseAdapters] = await Promise.all([
      super.networkAdapters(),
      this.baseNetworkAdapters(),
    ]);
    return mergeAdapters(chassisAdapters, baseAdapters);
  }

  private async baseNetworkAdapters(): Promise<NetworkAdapterInfo[]> {
    const link = hpeOem<HpeSystemOem>(await this.system()).Links?.NetworkAdapters?.["@odata.id"];
    if (!link) return [];
    const [adapters, chassis] = await Promise.all([
      this.members<HpeBaseNetworkAdapter>(link),
      this.systemChassis(),
    ]);
    return adapters.map((adapter) => toBaseAdapterInfo(adapter, chassis?.Id ?? ""));
  }
}

interface DpuBootState {
  wanted: string;
  order: string[];
  dpu: BootOptionInfo | undefined;
  first: BootOptionInfo | undefined;
}

/** iLO answers 400 `UnableToModifyDuringSystemPOST` to boot order changes while the host is in POST. */
function refusedDuringPost(error: unknown): boolean {
  return (
    error instanceof RedfishHttpError &&
    error.httpStatus === 400 &&
    (error.hasMessageId("UnableToModifyDuringSystemPOST") ||
      error.bodyExcerpt.includes("UnableToModifyDuringSystemPOST"))
  );
}
