import type { BmcDriver, DriverContext } from "../drivers/bmcDriver.js";
import type { ExplorationReport } from "../drivers/explorationReport.js";
import type {
  AccountInfo,
  AccountRole,
  BiosAttributes,
  BootOrderInfo,
  BootTarget,
  DriveInfo,
  EthernetInterfaceInfo,
  EventLogQuery,
  FirmwareComponent,
  FirmwareUpdateRequest,
  JobRef,
  JobState,
  JobStatus,
  LogEntryInfo,
  MachineSetupOptions,
  MachineSetupResult,
  MachineSetupStatus,
  NetworkAdapterInfo,
  NicMode,
  PasswordPolicy,
  PcieDeviceInfo,
  PowerAction,
  PowerMetrics,
  PowerState,
  SecureBootStatus,
  SensorReading,
  SettingDiff,
  TriStateStatus,
} from "../drivers/types.js";
import { InvalidArgumentError, NotSupportedError, RacksmithError } from "../errors/index.js";
import type { Logger } from "../logging/index.js";
import {
  type AccountService,
  type ActionTarget,
  type Bios,
  type BootOption,
  type Chassis,
  type ComputerSystem,
  type Drive,
  type EthernetInterface,
  type LogEntry,
  type LogService,
  lastSegment,
  type Manager,
  type ManagerAccount,
  type NetworkAdapter,
  type PCIeDevice,
  type Power,
  probeService,
  type RedfishClient,
  type RedfishObject,
  type RedfishResponse,
  type SecureBoot,
  type Sensor,
  type ServiceProbe,
  type ServiceRoot,
  type SoftwareInventory,
  type Storage,
  type Task,
  type Thermal,
  type UpdateService,
} from "../redfish/index.js";
import {
  bootOptionMatches,
  bootOptionsNameMacs,
  findDpuBootOption,
  moveToFront,
  NO_BOOT_OPTION_MAC,
  OVERRIDE_TARGET,
} from "./bootMatching.js";
import { entriesSince, pickLogService } from "./eventLogs.js";
import { exploreWithDriver } from "./explore.js";
import {
  isUsbDrive,
  normalizeMac,
  toAccountInfo,
  toBootOptionInfo,
  toDriveInfo,
  toEthernetInterfaceInfos,
  toFirmwareComponent,
  toLogEntryInfo,
  toNetworkAdapterInfo,
  toPcieDeviceInfo,
  toPowerState,
} from "./mappers.js";
import { choosePrimarySystem, systemChoiceFacts } from "./primarySystem.js";
import { powerMetricsFrom, readingFromSensor, readingsFromThermal } from "./sensors.js";

const SYSTEM_LOG_PREFERENCE = ["SEL", "EventLog", "IML", "Log1", "Event", "PlatformLog"];
const BMC_LOG_PREFERENCE = ["IEL", "Sel", "EventLog", "Lclog", "Log1", "AuditLog"];

/**
 * Every `BmcDriver` operation by the DMTF Redfish standard alone — no OEM paths — so any compliant BMC works
 * without a vendor driver. Vendor drivers extend this class and override only what their hardware does
 * differently; the protected helpers (paths, resources, actions) are theirs to use.
 */
export class RedfishStandard implements BmcDriver {
  readonly name: string = "redfish-standard";
  protected readonly logger: Logger;
  private cachedSystemId: string | undefined;
  private cachedManagerId: string | undefined;
  private cachedProbe: ServiceProbe | undefined;

  constructor(
    readonly client: RedfishClient,
    protected readonly context: DriverContext,
  ) {
    this.logger = context.logger;
    this.cachedSystemId = context.systemId;
    this.cachedProbe = context.probe;
  }

  // ---- identity and resources -------------------------------------------------------------------------

  async probe(): Promise<ServiceProbe> {
    this.cachedProbe ??= await probeService(this.client);
    return this.cachedProbe;
  }

  protected async serviceRoot(): Promise<ServiceRoot> {
    return (await this.probe()).serviceRoot;
  }

  async systemId(): Promise<string> {
    if (!this.cachedSystemId) {
      const ids = (await this.probe()).systemIds;
      const first =
        ids[0] ?? lastSegment((await this.client.listMembers(await this.collectionPath("Systems")))[0] ?? "");
      if (!first)
        throw new RacksmithError("no_system", "FAILED_PRECONDITION", "the BMC lists no computer system");
      this.cachedSystemId = ids.length > 1 ? await this.hostSystemAmong(ids) : first;
    }
    return this.cachedSystemId;
  }

  /** Of several systems (a DGX host and its HGX baseboard), the one the host boots: `choosePrimarySystem`. */
  private async hostSystemAmong(ids: readonly string[]): Promise<string> {
    const collection = await this.collectionPath("Systems");
    const facts = await Promise.all(
      ids.map(async (id) =>
        systemChoiceFacts(
          id,
          await this.client
            .get<ComputerSystem>(`${collection}/${encodeURIComponent(id)}`)
            .catch(() => undefined),
        ),
      ),
    );
    return choosePrimarySystem(facts) ?? (ids[0] as string);
  }

  async managerId(): Promise<string> {
    if (!this.cachedManagerId) {
      const ids = (await this.probe()).managerIds;
      const first =
        ids[0] ??
        lastSegment((await this.client.listMembers(await this.collectionPath("Managers")))[0] ?? "");
      if (!first) throw new RacksmithError("no_manager", "FAILED_PRECONDITION", "the BMC lists no manager");
      this.cachedManagerId = first;
    }
    return this.cachedManagerId;
  }

  protected async collectionPath(name: "Systems" | "Managers" | "Chassis"): Promise<string> {
    return (await this.serviceRoot())[name]?.["@odata.id"] ?? `/redfish/v1/${name}`;
  }

  protected async systemPath(): Promise<string> {
    return `${await this.collectionPath("Systems")}/${encodeURIComponent(await this.systemId())}`;
  }

  protected async managerPath(): Promise<string> {
    return `${await this.collectionPath("Managers")}/${encodeURIComponent(await this.managerId())}`;
  }

  protected async system(): Promise<ComputerSystem> {
    return this.client.get<ComputerSystem>(await this.systemPath());
  }

  protected async manager(): Promise<Manager> {
    return this.client.get<Manager>(await this.managerPath());
  }

  /**
   * Every chassis resource, in collection order (unreadable ones are skipped). A BMC that advertises `$expand`
   * gives them in one request; when that read fails, each is read on its own.
   */
  protected async allChassis(): Promise<Chassis[]> {
    const path = await this.collectionPath("Chassis");
    if (await this.canExpand()) {
      const expanded = await this.client.getMembers<Chassis>(path, { expand: true }).catch(() => undefined);
      if (expanded) return expanded;
    }
    const ids = await this.client.listMembers(path);
    const all = await Promise.all(ids.map((id) => this.client.get<Chassis>(id).catch(() => undefined)));
    return all.filter((chassis): chassis is Chassis => chassis !== undefined);
  }

  /** The chassis that holds the managed system: same Id, else the system's first linked chassis, else the first. */
  protected async systemChassis(): Promise<Chassis | undefined> {
    const [all, systemId] = await Promise.all([this.allChassis(), this.systemId()]);
    const sameId = all.find((chassis) => chassis.Id === systemId);
    if (sameId) return sameId;
    const linked = (await this.system()).Links?.Chassis?.[0]?.["@odata.id"];
    return all.find((chassis) => chassis["@odata.id"] === linked) ?? all[0];
  }

  /** Whether the BMC advertises `$expand`; collections are then read in one request. */
  protected async canExpand(): Promise<boolean> {
    return (await this.serviceRoot()).ProtocolFeaturesSupported?.ExpandQuery?.Levels === true;
  }

  protected async members<T extends RedfishObject>(path: string): Promise<T[]> {
    return this.client.getMembers<T>(path, { expand: await this.canExpand() });
  }

  protected notSupported(operation: string, reason: string): never {
    throw new NotSupportedError(operation, reason);
  }

  /**
   * The target of an action, or undefined when the resource does not advertise it: the standard
   * `Actions["#Res.Action"]` first, else the same name under `Actions.Oem` (directly or in a vendor's object).
   */
  protected actionTarget(resource: RedfishObject, action: string): string | undefined {
    return actionDescriptor(resource, action)?.target;
  }

  /** Allowable values of an action parameter, from the inline annotation or its `@Redfish.ActionInfo`. */
  protected async allowableValues(
    resource: RedfishObject,
    action: string,
    parameter: string,
  ): Promise<string[] | undefined> {
    const descriptor = actionDescriptor(resource, action);
    const inline = descriptor?.[`${parameter}@Redfish.AllowableValues`];
    if (Array.isArray(inline)) return inline.map(String);
    const infoPath = descriptor?.["@Redfish.ActionInfo"];
    if (typeof infoPath !== "string") return undefined;
    try {
      const info = await this.client.get(infoPath);
      const parameters = Array.isArray(info.Parameters) ? (info.Parameters as RedfishObject[]) : [];
      const values = parameters.find((p) => p.Name === parameter)?.AllowableValues;
      return Array.isArray(values) ? values.map(String) : undefined;
    } catch {
      return undefined;
    }
  }

  // ---- power ------------------------------------------------------------------------------------------

  async powerState(): Promise<PowerState> {
    return toPowerState((await this.system()).PowerState);
  }

  async power(action: PowerAction): Promise<void> {
    if (action === "ACPowercycle") {
      this.notSupported(
        "power ACPowercycle",
        "standard Redfish has no auxiliary power cycle; use a vendor driver",
      );
    }
    const system = await this.system();
    const state = toPowerState(system.PowerState);
    if (action === "On" && state === "On") return;
    if ((action === "ForceOff" || action === "GracefulShutdown") && state === "Off") return;
    // Restarting a host that is off means turning it on.
    const effective: PowerAction =
      state === "Off" &&
      (action === "GracefulRestart" || action === "ForceRestart" || action === "PowerCycle")
        ? "On"
        : action;
    const target =
      this.actionTarget(system, "#ComputerSystem.Reset") ??
      `${await this.systemPath()}/Actions/ComputerSystem.Reset`;
    const allowed = await this.allowableValues(system, "#ComputerSystem.Reset", "ResetType");
    if (allowed && !allowed.includes(effective)) {
      this.notSupported(`power ${effective}`, `the BMC allows only ${allowed.join(", ")}`);
    }
    await this.client.post(target, { ResetType: effective });
  }

  async bmcReset(): Promise<void> {
    const manager = await this.manager();
    const target =
      this.actionTarget(manager, "#Manager.Reset") ?? `${await this.managerPath()}/Actions/Manager.Reset`;
    const allowed = await this.allowableValues(manager, "#Manager.Reset", "ResetType");
    const resetType =
      !allowed || allowed.includes("GracefulRestart")
        ? "GracefulRestart"
        : allowed.includes("ForceRestart")
          ? "ForceRestart"
          : undefined;
    if (!resetType) this.notSupported("bmc reset", `the BMC allows only ${allowed?.join(", ")}`);
    await this.client.post(target, { ResetType: resetType });
  }

  // ---- boot -------------------------------------------------------------------------------------------

  async bootOptions(): Promise<BootOrderInfo> {
    const system = await this.system();
    const optionsPath = system.Boot?.BootOptions?.["@odata.id"];
    const options = optionsPath ? (await this.members<BootOption>(optionsPath)).map(toBootOptionInfo) : [];
    return { order: system.Boot?.BootOrder ?? [], options };
  }

  async bootOnce(target: BootTarget): Promise<void> {
    await this.setBootOverride(target, "Once");
  }

  async bootFirst(target: BootTarget): Promise<void> {
    const { order, options } = await this.bootOptions();
    if (order.length > 0 && options.length > 0) {
      const option = options.find(
        (candidate) => bootOptionMatches(candidate, target) && candidate.enabled !== false,
      );
      if (!option) throw bootOptionNotFound(target);
      await this.setBootOrder(moveToFront(order, option.reference));
      return;
    }
    await this.setBootOverride(target, "Continuous");
  }

  async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    const wanted = requireMac(mac);
    const { order, options } = await this.bootOptions();
    if (!bootOptionsNameMacs(options)) this.notSupported("boot order DPU first", NO_BOOT_OPTION_MAC);
    const option = findDpuBootOption(options, wanted);
    if (!option) throw bootOptionNotFound(`network boot from ${wanted}`);
    if (order[0] === option.reference) return undefined;
    await this.setBootOrder(moveToFront(order, option.reference));
    return undefined;
  }

  async isBootOrderDpuFirst(mac: string): Promise<boolean> {
    const wanted = requireMac(mac);
    const { order, options } = await this.bootOptions();
    if (!bootOptionsNameMacs(options)) this.notSupported("boot order DPU first check", NO_BOOT_OPTION_MAC);
    const first = options.find((option) => option.reference === order[0]);
    return first?.mac === wanted;
  }

  /** PATCH `Boot.BootOrder` on the system. */
  protected async setBootOrder(order: string[]): Promise<void> {
    await this.client.patch(await this.systemPath(), { Boot: { BootOrder: order } });
  }

  protected async setBootOverride(target: BootTarget, enabled: "Once" | "Continuous"): Promise<void> {
    const system = await this.system();
    const boot = system.Boot;
    const operation = `boot ${enabled === "Once" ? "once" : "first"} ${target}`;
    if (!boot || !("BootSourceOverrideTarget" in boot))
      this.notSupported(operation, "the system has no boot override");
    const value = OVERRIDE_TARGET[target];
    const allowed = boot["BootSourceOverrideTarget@Redfish.AllowableValues"];
    if (Array.isArray(allowed) && !allowed.includes(value)) {
      this.notSupported(operation, `the BMC allows override targets ${allowed.join(", ")}`);
    }
    const enabledAllowed = boot["BootSourceOverrideEnabled@Redfish.AllowableValues" as keyof typeof boot];
    if (Array.isArray(enabledAllowed) && !enabledAllowed.includes(enabled)) {
      this.notSupported(operation, `the BMC allows override modes ${enabledAllowed.join(", ")}`);
    }
    // Send the mode only when the BMC advertises it: some reject it, others require it.
    const mode = boot.BootSourceOverrideMode ? { BootSourceOverrideMode: "UEFI" } : {};
    await this.client.patch(await this.systemPath(), {
      Boot: { BootSourceOverrideEnabled: enabled, BootSourceOverrideTarget: value, ...mode },
    });
  }

  // ---- BIOS -------------------------------------------------------------------------------------------

  protected async biosPath(): Promise<string> {
    const link = (await this.system()).Bios?.["@odata.id"];
    if (!link) this.notSupported("bios", "the system has no Bios resource");
    return link;
  }

  /** Where pending BIOS settings are written: `@Redfish.Settings.SettingsObject`, else `Bios/Settings`. */
  protected async biosSettingsPath(): Promise<string> {
    const biosPath = await this.biosPath();
    const bios = await this.client.get<Bios>(biosPath);
    return bios["@Redfish.Settings"]?.SettingsObject?.["@odata.id"] ?? `${biosPath}/Settings`;
  }

  async bios(): Promise<BiosAttributes> {
    const bios = await this.client.get<Bios>(await this.biosPath());
    return { ...(bios.Attributes ?? {}) };
  }

  async setBios(attributes: BiosAttributes): Promise<JobRef | undefined> {
    if (Object.keys(attributes).length === 0) throw new InvalidArgumentError("no BIOS attributes to set");
    await this.client.patch(await this.biosSettingsPath(), { Attributes: attributes });
    return undefined;
  }

  async pendingBios(): Promise<BiosAttributes> {
    const [current, settingsPath] = await Promise.all([this.bios(), this.biosSettingsPath()]);
    const settings = await this.client.get<Bios>(settingsPath);
    return diffAttributes(current, settings.Attributes ?? {});
  }

  async clearPendingBios(): Promise<void> {
    // Redfish has no "discard pending": stage the current value of every pending attribute instead.
    const pending = await this.pendingBios();
    if (Object.keys(pending).length === 0) return;
    const current = await this.bios();
    const restore: BiosAttributes = {};
    for (const key of Object.keys(pending)) restore[key] = current[key] ?? null;
    await this.client.patch(await this.biosSettingsPath(), { Attributes: restore });
  }

  async resetBios(): Promise<void> {
    const biosPath = await this.biosPath();
    const bios = await this.client.get<Bios>(biosPath);
    const target = this.actionTarget(bios, "#Bios.ResetBios");
    if (!target) this.notSupported("bios reset", "the Bios resource has no #Bios.ResetBios action");
    await this.client.post(target, {});
  }

  async machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult> {
    const profile = options.biosProfile ?? {};
    if (Object.keys(profile).length === 0 && !options.bootInterfaceMac) {
      this.notSupported(
        "machine setup",
        "standard Redfish has no vendor-neutral BIOS settings; configure a BIOS profile for this model or use a vendor driver",
      );
    }
    if (Object.keys(profile).length > 0) await this.setBios(profile);
    const job = options.bootInterfaceMac
      ? await this.setBootOrderDpuFirst(options.bootInterfaceMac)
      : undefined;
    return { rebootRequired: true, ...(job ? { job } : {}) };
  }

  async machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    const profile = options.biosProfile ?? {};
    if (Object.keys(profile).length === 0 && !options.bootInterfaceMac) {
      this.notSupported("machine setup status", "no BIOS profile or boot interface to compare against");
    }
    const diffs: SettingDiff[] =
      Object.keys(profile).length > 0 ? attributeDiffs(profile, await this.bios()) : [];
    if (options.bootInterfaceMac && !(await this.isBootOrderDpuFirst(options.bootInterfaceMac))) {
      diffs.push({
        key: "BootOrder[0]",
        expected: `boot from ${normalizeMac(options.bootInterfaceMac)}`,
        actual: "other",
      });
    }
    return { done: diffs.length === 0, diffs };
  }

  // ---- lockdown and serial console --------------------------------------------------------------------

  async setLockdown(_enabled: boolean): Promise<void> {
    this.notSupported("lockdown", "BMC lockdown is vendor-specific; standard Redfish has no such setting");
  }

  async lockdownStatus(): Promise<TriStateStatus> {
    this.notSupported(
      "lockdown status",
      "BMC lockdown is vendor-specific; standard Redfish has no such setting",
    );
  }

  async setupSerialConsole(): Promise<void> {
    const [system, manager] = await Promise.all([this.system(), this.manager()]);
    const systemPatch = enableConsoleProtocols(system.SerialConsole);
    const managerPatch = enableConsoleProtocols(manager.SerialConsole);
    if (!systemPatch && !managerPatch) {
      this.notSupported(
        "serial console setup",
        "neither the system nor the manager has a SerialConsole property",
      );
    }
    if (systemPatch) await this.client.patch(await this.systemPath(), { SerialConsole: systemPatch });
    if (managerPatch) await this.client.patch(await this.managerPath(), { SerialConsole: managerPatch });
  }

  async serialConsoleStatus(): Promise<TriStateStatus> {
    const [system, manager] = await Promise.all([this.system(), this.manager()]);
    const flags = [
      ...consoleFlags("system", system.SerialConsole),
      ...consoleFlags("manager", manager.SerialConsole),
    ];
    if (flags.length === 0) {
      this.notSupported(
        "serial console status",
        "neither the system nor the manager has a SerialConsole property",
      );
    }
    return triState(flags);
  }

  // ---- accounts ---------------------------------------------------------------------------------------

  protected async accountService(): Promise<AccountService> {
    const link = (await this.serviceRoot()).AccountService?.["@odata.id"] ?? "/redfish/v1/AccountService";
    return this.client.get<AccountService>(link);
  }

  protected async accountResources(): Promise<ManagerAccount[]> {
    const service = await this.accountService();
    const link = service.Accounts?.["@odata.id"];
    if (!link) this.notSupported("accounts", "the AccountService has no Accounts collection");
    return this.members<ManagerAccount>(link);
  }

  protected async findAccount(userName: string): Promise<ManagerAccount> {
    const account = (await this.accountResources()).find((candidate) => candidate.UserName === userName);
    if (!account?.["@odata.id"]) {
      throw new RacksmithError(
        "account_not_found",
        "NOT_FOUND",
        `no BMC account named ${JSON.stringify(userName)}`,
      );
    }
    return account;
  }

  async accounts(): Promise<AccountInfo[]> {
    return (await this.accountResources()).map(toAccountInfo);
  }

  async createAccount(userName: string, password: string, role: AccountRole): Promise<AccountInfo> {
    const service = await this.accountService();
    const link = service.Accounts?.["@odata.id"];
    if (!link) this.notSupported("create account", "the AccountService has no Accounts collection");
    const response = await this.client.post(link, {
      UserName: userName,
      Password: password,
      RoleId: role,
      Enabled: true,
    });
    const created = response.location
      ? await this.client.get<ManagerAccount>(response.location)
      : await this.findAccount(userName);
    return toAccountInfo(created);
  }

  async deleteAccount(userName: string): Promise<void> {
    const account = await this.findAccount(userName);
    await this.client.delete(account["@odata.id"] as string);
  }

  async changePassword(userName: string, newPassword: string): Promise<void> {
    const account = await this.findAccount(userName);
    // ManagerAccount ETags are mandatory in Redfish; send the current one.
    await this.client.patch(account["@odata.id"] as string, { Password: newPassword }, { ifMatch: "auto" });
  }

  async passwordPolicy(): Promise<PasswordPolicy> {
    const service = await this.accountService();
    return definedOnly({
      lockoutThreshold: service.AccountLockoutThreshold,
      lockoutDurationSeconds: service.AccountLockoutDuration,
      lockoutCounterResetAfterSeconds: service.AccountLockoutCounterResetAfter,
      minPasswordLength: service.MinPasswordLength,
      maxPasswordLength: service.MaxPasswordLength,
    });
  }

  async setPasswordPolicy(policy: PasswordPolicy): Promise<void> {
    const service = await this.accountService();
    const patch = definedOnly({
      AccountLockoutThreshold: policy.lockoutThreshold,
      AccountLockoutDuration: policy.lockoutDurationSeconds,
      AccountLockoutCounterResetAfter: policy.lockoutCounterResetAfterSeconds,
      MinPasswordLength: policy.minPasswordLength,
      MaxPasswordLength: policy.maxPasswordLength,
    });
    if (Object.keys(patch).length === 0)
      throw new InvalidArgumentError("password policy has no setting to change");
    await this.client.patch(service["@odata.id"] ?? "/redfish/v1/AccountService", patch);
  }

  async changeUefiPassword(currentPassword: string, newPassword: string): Promise<JobRef | undefined> {
    const bios = await this.client.get<Bios>(await this.biosPath());
    const target = this.actionTarget(bios, "#Bios.ChangePassword");
    if (!target) this.notSupported("UEFI password", "the Bios resource has no #Bios.ChangePassword action");
    await this.client.post(target, {
      PasswordName: "AdministratorPassword",
      OldPassword: currentPassword,
      NewPassword: newPassword,
    });
    return undefined;
  }

  // ---- firmware and jobs ------------------------------------------------------------------------------

  protected async updateService(): Promise<UpdateService> {
    const link = (await this.serviceRoot()).UpdateService?.["@odata.id"];
    if (!link) this.notSupported("firmware", "the service root has no UpdateService");
    return this.client.get<UpdateService>(link);
  }

  async firmwareInventory(): Promise<FirmwareComponent[]> {
    const link = (await this.updateService()).FirmwareInventory?.["@odata.id"];
    if (!link) this.notSupported("firmware inventory", "the UpdateService has no FirmwareInventory");
    return (await this.members<SoftwareInventory>(link)).map(toFirmwareComponent);
  }

  async updateFirmware(request: FirmwareUpdateRequest): Promise<JobRef> {
    const service = await this.updateService();
    let response: RedfishResponse;
    switch (request.method) {
      case "simpleUpdate": {
        const target = this.actionTarget(service, "#UpdateService.SimpleUpdate");
        if (!target)
          this.notSupported("firmware simple update", "the UpdateService has no SimpleUpdate action");
        response = await this.client.post(target, {
          ImageURI: request.imageUri,
          ...(request.transferProtocol ? { TransferProtocol: request.transferProtocol } : {}),
          ...(request.targets ? { Targets: request.targets } : {}),
        });
        break;
      }
      case "httpPush": {
        if (!service.HttpPushUri)
          this.notSupported("firmware HTTP push", "the UpdateService has no HttpPushUri");
        response = await this.client.request("POST", service.HttpPushUri, {
          body: request.data,
          timeoutMs: 30 * 60_000,
        });
        break;
      }
      case "multipart": {
        const uri = service.MultipartHttpPushUri;
        if (!uri)
          this.notSupported("firmware multipart upload", "the UpdateService has no MultipartHttpPushUri");
        response = await this.client.postMultipart(
          uri,
          {
            parameters: {
              Targets: request.targets ?? [],
              "@Redfish.OperationApplyTime": request.applyTime ?? "Immediate",
            },
            file: { filename: request.filename, data: request.data },
          },
          { timeoutMs: 30 * 60_000 },
        );
        break;
      }
    }
    return taskRefOf(response);
  }

  async jobStatus(job: JobRef): Promise<JobStatus> {
    const resource = await this.client.get<Task>(job.path);
    const raw = String(resource.TaskState ?? resource.JobState ?? "");
    const message = resource.Messages?.map((m) => m.Message ?? m.MessageId)
      .filter(Boolean)
      .join("; ");
    return {
      id: job.id,
      state: jobStateOf(raw),
      ...(typeof resource.PercentComplete === "number" ? { percentComplete: resource.PercentComplete } : {}),
      ...(message ? { message } : {}),
    };
  }

  // ---- telemetry --------------------------------------------------------------------------------------

  async thermal(): Promise<SensorReading[]> {
    const chassis = (await this.allChassis()).filter((c) => c.Thermal?.["@odata.id"]);
    if (chassis.length === 0) this.notSupported("thermal", "no chassis has a Thermal resource");
    const readings = await Promise.all(
      chassis.map(async (c) =>
        readingsFromThermal(await this.client.get<Thermal>(c.Thermal?.["@odata.id"] as string), c.Id ?? ""),
      ),
    );
    return readings.flat();
  }

  async powerMetrics(): Promise<PowerMetrics> {
    const all = await this.allChassis();
    const primary = await this.systemChassis();
    const chassis = [primary, ...all].find((c) => c?.Power?.["@odata.id"]);
    if (!chassis) this.notSupported("power metrics", "no chassis has a Power resource");
    return powerMetricsFrom(await this.client.get<Power>(chassis.Power?.["@odata.id"] as string));
  }

  async sensors(): Promise<SensorReading[]> {
    const chassis = (await this.allChassis()).filter((c) => c.Sensors?.["@odata.id"]);
    if (chassis.length === 0) this.notSupported("sensors", "no chassis has a Sensors collection");
    const readings = await Promise.all(
      chassis.map(async (c) =>
        (await this.members<Sensor>(c.Sensors?.["@odata.id"] as string)).map((s) =>
          readingFromSensor(s, c.Id ?? ""),
        ),
      ),
    );
    return readings.flat();
  }

  // ---- event logs -------------------------------------------------------------------------------------

  protected async logServices(owner: "system" | "manager"): Promise<LogService[]> {
    const resource = owner === "system" ? await this.system() : await this.manager();
    const link = resource.LogServices?.["@odata.id"];
    if (!link) return [];
    const ids = await this.client.listMembers(link);
    const services = await Promise.all(
      ids.map((id) => this.client.get<LogService>(id).catch(() => undefined)),
    );
    return services.filter((service): service is LogService => service !== undefined);
  }

  protected async readLog(service: LogService, query: EventLogQuery): Promise<LogEntryInfo[]> {
    const entries = await this.members<LogEntry>(service.Entries?.["@odata.id"] as string);
    return entriesSince(
      entries.map((entry) => toLogEntryInfo(entry, service.Id ?? "")),
      query.sinceId,
      query.limit,
    );
  }

  async systemEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const service =
      pickLogService(await this.logServices("system"), SYSTEM_LOG_PREFERENCE) ??
      pickLogService(await this.logServices("manager"), ["SEL"]);
    if (!service)
      this.notSupported("system event log", "no SEL-type log service on the system or the manager");
    return this.readLog(service, query);
  }

  async bmcEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const services = await this.logServices("manager");
    const service =
      pickLogService(services, BMC_LOG_PREFERENCE) ?? services.find((s) => s.Entries?.["@odata.id"]);
    if (!service) this.notSupported("BMC event log", "the manager has no log service with entries");
    return this.readLog(service, query);
  }

  // ---- security ---------------------------------------------------------------------------------------

  protected async secureBootPath(): Promise<string> {
    const link = (await this.system()).SecureBoot?.["@odata.id"];
    if (!link) this.notSupported("secure boot", "the system has no SecureBoot resource");
    return link;
  }

  async secureBootStatus(): Promise<SecureBootStatus> {
    const resource = await this.client.get<SecureBoot>(await this.secureBootPath());
    return {
      enabled: typeof resource.SecureBootEnable === "boolean" ? resource.SecureBootEnable : null,
      currentBoot: resource.SecureBootCurrentBoot ?? null,
      mode: resource.SecureBootMode ?? null,
    };
  }

  async setSecureBoot(enabled: boolean): Promise<void> {
    await this.client.patch(await this.secureBootPath(), { SecureBootEnable: enabled });
  }

  async clearTpm(): Promise<void> {
    this.notSupported("TPM clear", "standard Redfish has no TPM clear; it is a vendor BIOS setting");
  }

  // ---- inventory --------------------------------------------------------------------------------------

  protected async ethernetInterfaces(owner: ComputerSystem | Manager): Promise<EthernetInterfaceInfo[]> {
    const link = owner.EthernetInterfaces?.["@odata.id"];
    if (!link) return [];
    return toEthernetInterfaceInfos(await this.members<EthernetInterface>(link));
  }

  async systemEthernetInterfaces(): Promise<EthernetInterfaceInfo[]> {
    return this.ethernetInterfaces(await this.system());
  }

  async managerEthernetInterfaces(): Promise<EthernetInterfaceInfo[]> {
    return this.ethernetInterfaces(await this.manager());
  }

  /**
   * PCIe devices of the chassis whose Id equals the system Id, else of the first chassis that has a PCIe
   * collection, else the system's own `PCIeDevices` links.
   */
  async pcieDevices(): Promise<PcieDeviceInfo[]> {
    const [all, systemId] = await Promise.all([this.allChassis(), this.systemId()]);
    const withDevices = all.filter((chassis) => chassis.PCIeDevices?.["@odata.id"]);
    const chassis = withDevices.find((c) => c.Id === systemId) ?? withDevices[0];
    if (chassis) {
      return (await this.members<PCIeDevice>(chassis.PCIeDevices?.["@odata.id"] as string)).map(
        toPcieDeviceInfo,
      );
    }
    const links = (await this.system()).PCIeDevices;
    if (Array.isArray(links)) {
      const devices = await Promise.all(
        links.map((link) => this.client.get<PCIeDevice>(link["@odata.id"]).catch(() => undefined)),
      );
      return devices.filter((d): d is PCIeDevice => d !== undefined).map(toPcieDeviceInfo);
    }
    if (links?.["@odata.id"])
      return (await this.members<PCIeDevice>(links["@odata.id"])).map(toPcieDeviceInfo);
    this.notSupported("PCIe devices", "neither the chassis nor the system lists PCIe devices");
  }

  async networkAdapters(): Promise<NetworkAdapterInfo[]> {
    const chassis = (await this.allChassis()).filter((c) => c.NetworkAdapters?.["@odata.id"]);
    const lists = await Promise.all(
      chassis.map(async (c) =>
        (await this.members<NetworkAdapter>(c.NetworkAdapters?.["@odata.id"] as string)).map((adapter) =>
          toNetworkAdapterInfo(adapter, c.Id ?? ""),
        ),
      ),
    );
    return lists.flat();
  }

  /** Drives of every storage subsystem of the system; USB media excluded. */
  async drives(): Promise<DriveInfo[]> {
    const link = (await this.system()).Storage?.["@odata.id"];
    if (!link) this.notSupported("drives", "the system has no Storage collection");
    const storages = await this.members<Storage>(link);
    const drives: DriveInfo[] = [];
    for (const storage of storages) {
      const driveLinks = storage.Drives ?? [];
      const resources = await Promise.all(
        driveLinks.map((d) => this.client.get<Drive>(d["@odata.id"]).catch(() => undefined)),
      );
      for (const resource of resources) {
        if (!resource) continue;
        const info = toDriveInfo(resource, storage.Id ?? "");
        if (!isUsbDrive(info, resource)) drives.push(info);
      }
    }
    return drives;
  }

  // ---- DPU --------------------------------------------------------------------------------------------

  async nicMode(): Promise<NicMode> {
    this.notSupported("NIC mode", "only BlueField DPU drivers can read the NIC/DPU mode");
  }

  async setNicMode(_mode: NicMode): Promise<void> {
    this.notSupported("set NIC mode", "only BlueField DPU drivers can change the NIC/DPU mode");
  }

  async enableRshim(): Promise<void> {
    this.notSupported("rshim", "only BlueField DPU drivers have rshim");
  }

  async baseMac(): Promise<string> {
    this.notSupported("base MAC", "only BlueField DPU drivers report a base MAC");
  }

  // ---- exploration ------------------------------------------------------------------------------------

  async explore(): Promise<ExplorationReport> {
    return exploreWithDriver(this, await this.probe());
  }
}

/**
 * An action's descriptor: `Actions[action]` when it has a target, else the first one of that name with a
 * target under `Actions.Oem` — `Oem["#Vendor.Action"]` or nested, `Oem.Vendor["#Vendor.Action"]` — searched
 * breadth-first a few levels deep.
 */
function actionDescriptor(resource: RedfishObject, action: string): ActionTarget | undefined {
  const actions = asObject(resource.Actions);
  const standard = asObject(actions?.[action]);
  if (typeof standard?.target === "string") return standard as ActionTarget;
  let level: Record<string, unknown>[] = [asObject(actions?.Oem)].filter((o) => o !== undefined);
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const found = level.map((o) => asObject(o[action])).find((d) => typeof d?.target === "string");
    if (found) return found as ActionTarget;
    level = level.flatMap((o) => Object.values(o).map(asObject)).filter((o) => o !== undefined);
  }
  return standard as ActionTarget | undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A MAC in any common notation, normalised; an InvalidArgumentError names the bad value. */
export function requireMac(mac: string): string {
  const normalized = normalizeMac(mac);
  if (!normalized) throw new InvalidArgumentError(`${JSON.stringify(mac)} is not a MAC address`);
  return normalized;
}

/**
 * No boot option matches what was asked (a target, or network boot from a MAC); nothing was changed. The one
 * class for every driver: `hint` says how to make the option appear, `available` lists what the BMC offers.
 */
export class BootOptionNotFoundError extends RacksmithError {
  constructor(
    readonly target: string,
    options: { hint?: string; available?: readonly string[] } = {},
  ) {
    super(
      "boot_option_not_found",
      "FAILED_PRECONDITION",
      `no boot option for ${target}${options.hint ? ` (${options.hint})` : ""}`,
      { details: { target, ...(options.available ? { available: [...options.available] } : {}) } },
    );
  }
}

function bootOptionNotFound(what: string): RacksmithError {
  return new BootOptionNotFoundError(what);
}

/** Attributes in `staged` whose value differs from `current`. */
export function diffAttributes(current: BiosAttributes, staged: BiosAttributes): BiosAttributes {
  const out: BiosAttributes = {};
  for (const [key, value] of Object.entries(staged)) {
    if (current[key] !== value) out[key] = value;
  }
  return out;
}

/** Expected-vs-actual for every attribute whose current value is not the expected one. */
export function attributeDiffs(expected: BiosAttributes, actual: BiosAttributes): SettingDiff[] {
  return Object.entries(expected)
    .filter(([key, value]) => String(actual[key]) !== String(value))
    .map(([key, value]) => ({
      key,
      expected: String(value),
      actual: key in actual ? String(actual[key]) : "(missing)",
    }));
}

type ConsoleProtocols = ComputerSystem["SerialConsole"];

function enableConsoleProtocols(console: ConsoleProtocols): Record<string, unknown> | undefined {
  if (!console) return undefined;
  const patch: Record<string, unknown> = {};
  for (const protocol of ["IPMI", "SSH", "Telnet"] as const) {
    if (protocol === "Telnet") continue; // never turn on a cleartext console
    if (console[protocol] && typeof console[protocol]?.ServiceEnabled === "boolean") {
      patch[protocol] = { ServiceEnabled: true };
    }
  }
  if (typeof console.ServiceEnabled === "boolean") patch.ServiceEnabled = true;
  return Object.keys(patch).length ? patch : undefined;
}

function consoleFlags(owner: string, console: ConsoleProtocols): Array<[string, boolean]> {
  if (!console) return [];
  const flags: Array<[string, boolean]> = [];
  for (const protocol of ["IPMI", "SSH"] as const) {
    const enabled = console[protocol]?.ServiceEnabled;
    if (typeof enabled === "boolean") flags.push([`${owner} ${protocol}`, enabled]);
  }
  if (typeof console.ServiceEnabled === "boolean")
    flags.push([`${owner} serial console`, console.ServiceEnabled]);
  return flags;
}

/** enabled when every flag is on, disabled when none is, partial otherwise; the message lists both sides. */
export function triState(flags: ReadonlyArray<readonly [string, boolean]>): TriStateStatus {
  const on = flags.filter(([, value]) => value).map(([name]) => name);
  const off = flags.filter(([, value]) => !value).map(([name]) => name);
  const state = off.length === 0 ? "enabled" : on.length === 0 ? "disabled" : "partial";
  const parts = [
    on.length ? `enabled: ${on.join(", ")}` : "",
    off.length ? `disabled: ${off.join(", ")}` : "",
  ];
  return { state, message: parts.filter(Boolean).join("; ") };
}

function definedOnly<T extends Record<string, unknown>>(
  record: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

const JOB_STATES: ReadonlyArray<[RegExp, JobState]> = [
  [/^(New|Pending|Scheduled|Starting|Suspended)$/i, "scheduled"],
  [/^(Running|Stopping|Cancelling|Service|Downloading|Downloaded)$/i, "running"],
  [/^Completed$/i, "completed"],
  [/^CompletedWithErrors$/i, "completedWithErrors"],
  [/^(Exception|Killed|Cancelled|Interrupted|Failed)$/i, "failed"],
];

export function jobStateOf(raw: string): JobState {
  return JOB_STATES.find(([pattern]) => pattern.test(raw))?.[1] ?? "unknown";
}

/** A task reference from an update answer: `Location` (task monitor) or the Task in the body. */
export function taskRefOf(response: RedfishResponse): JobRef {
  const body = response.body as Task | undefined;
  const bodyId = typeof body?.["@odata.id"] === "string" ? body["@odata.id"] : undefined;
  const path = bodyId ?? response.location;
  if (!path) {
    throw new RacksmithError(
      "no_task",
      "INTERNAL",
      "the BMC accepted the update but returned no task to follow",
    );
  }
  return { kind: "task", id: body?.Id ?? lastSegment(path.replace(/\/Monitor$/i, "")), path };
}
