import {
  type AccountInfo,
  type AccountRole,
  type BiosAttributes,
  type BootOrderInfo,
  type BootTarget,
  type DriverContext,
  type FirmwareUpdateRequest,
  InvalidArgumentError,
  type JobRef,
  type JobStatus,
  type MachineSetupOptions,
  type MachineSetupResult,
  type MachineSetupStatus,
  type PasswordPolicy,
  type PowerAction,
  RacksmithError,
  RedfishStandard,
  type TriStateStatus,
} from "@racksmith/core";
import type { Chassis, RedfishClient, RedfishObject } from "@racksmith/core/redfish";
import {
  AccountExistsError,
  AccountSlotsFullError,
  JobNotCreatedError,
  LockedDownError,
  SettingReadOnlyError,
} from "../errors/index.js";
import {
  BiosStaging,
  DpuBootOrder,
  hasHttpStatus,
  type IdracResources,
  isReadOnlyRefusal,
  JobQueue,
  jobRefOf,
  MachineSetup,
  ManagerAttributes,
  NicInventory,
  oemActionTarget,
  SetupPassword,
  SystemLockdown,
  withoutSecretsInErrors,
} from "../idrac/index.js";
import {
  AC_POWER_CYCLE,
  DISABLE_ACCOUNT,
  evaluateChecks,
  FREE_ACCOUNT,
  firstBootDevice,
  freeAccountSlot,
  hasDeviceOptions,
  REMOTE_ACCESS,
  remoteAccessChecks,
  serialConsoleAttributes,
  serialConsoleChecks,
  TPM_CLEAR,
  withDeviceMacs,
} from "../setup/index.js";

const FIRMWARE_UPLOAD_TIMEOUT_MS = 30 * 60_000;

/**
 * Dell PowerEdge servers through iDRAC 9 (and the iDRAC 10 attribute variants): BIOS changes through
 * configuration jobs, System Lockdown, serial console and boot device through iDRAC attributes, the DPU's
 * HTTP boot device found through the NIC inventory, a fixed table of 16 accounts. Everything else is the
 * standard driver's.
 */
export class DellIdracDriver extends RedfishStandard {
  override readonly name = "dell";
  private readonly attributes: ManagerAttributes;
  private readonly jobs: JobQueue;
  private readonly staging: BiosStaging;
  private readonly nics: NicInventory;
  private readonly dpuBoot: DpuBootOrder;
  private readonly lockdown: SystemLockdown;
  private readonly setup: MachineSetup;
  private readonly setupPassword: SetupPassword;

  constructor(client: RedfishClient, context: DriverContext) {
    super(client, context);
    const idrac: IdracResources = {
      client,
      logger: this.logger,
      settings: context.settings,
      systemPath: () => this.systemPath(),
      managerPath: () => this.managerPath(),
      managerId: () => this.managerId(),
      system: () => this.system(),
      manager: () => this.manager(),
      bios: () => this.bios(),
      biosPath: () => this.biosPath(),
      biosSettingsPath: () => this.biosSettingsPath(),
      bootOrder: () => super.bootOptions(),
      members: <T extends RedfishObject>(path: string) => this.members<T>(path),
      networkChassis: () => this.networkChassis(),
    };
    this.attributes = new ManagerAttributes(idrac);
    this.jobs = new JobQueue(idrac, this.attributes);
    this.staging = new BiosStaging(idrac, this.jobs, this.attributes);
    this.nics = new NicInventory(idrac);
    this.dpuBoot = new DpuBootOrder(idrac, this.nics, this.attributes, this.jobs);
    this.lockdown = new SystemLockdown(idrac, this.attributes, this.staging);
    this.setup = new MachineSetup(idrac, this.attributes, this.staging, this.nics, this.dpuBoot);
    this.setupPassword = new SetupPassword(idrac, this.attributes, this.jobs);
  }

  private async networkChassis(): Promise<Chassis[]> {
    const primary = await this.systemChassis();
    if (primary?.NetworkAdapters) return [primary];
    return (await this.allChassis()).filter((chassis) => chassis.NetworkAdapters);
  }

  // ---- power ------------------------------------------------------------------------------------------

  override async power(action: PowerAction): Promise<void> {
    if (action === "ACPowercycle") return this.acPowerCycle();
    try {
      await super.power(action);
    } catch (error) {
      // The iDRAC answers 409 when the host is already where the action leads (it got there meanwhile).
      if (hasHttpStatus(error, 409) && (await this.alreadyAt(action))) return;
      throw error;
    }
  }

  private async alreadyAt(action: PowerAction): Promise<boolean> {
    const settled =
      action === "On" ? "On" : action === "ForceOff" || action === "GracefulShutdown" ? "Off" : undefined;
    return settled !== undefined && (await this.powerState()) === settled;
  }

  /**
   * The BIOS cuts auxiliary power at its next reset when `PowerCycleRequest=FullPowerCycle` is staged; other
   * pending changes are dropped first so they do not ride along. Refused while the host is locked down.
   */
  private async acPowerCycle(): Promise<void> {
    const operation = "AC power cycle";
    const hint = "disable lockdown, reboot, check that BIOS UefiVariableAccess is Standard, then retry";
    if (await this.attributes.isLockedDown()) throw new LockedDownError(operation, hint);
    const bios = await this.bios();
    if (bios.UefiVariableAccess === "Controlled") throw new LockedDownError(operation, hint);
    if (!("PowerCycleRequest" in bios)) {
      this.notSupported(
        "power ACPowercycle",
        "this BIOS has no PowerCycleRequest attribute (update the BIOS)",
      );
    }
    await this.clearPendingBios();
    try {
      await this.staging.stage(operation, AC_POWER_CYCLE);
    } catch (error) {
      if (!isReadOnlyRefusal(error)) throw error;
      throw new SettingReadOnlyError("PowerCycleRequest", "reboot the host once, then retry", error);
    }
    await super.power((await this.powerState()) === "Off" ? "On" : "GracefulRestart");
  }

  // ---- boot -------------------------------------------------------------------------------------------

  /** Boot options, with the MAC of the NIC each HTTP/PXE device option is bound to filled in. */
  override async bootOptions(): Promise<BootOrderInfo> {
    const info = await super.bootOptions();
    if (!hasDeviceOptions(info.options)) return info;
    try {
      return { ...info, options: withDeviceMacs(info.options, await this.nics.list()) };
    } catch (error) {
      this.logger.debug(
        { err: (error as Error).message },
        "NIC inventory unreadable; boot options keep no MAC",
      );
      return info;
    }
  }

  override async bootOnce(target: BootTarget): Promise<void> {
    await this.setFirstBootDevice(target, true);
  }

  override async bootFirst(target: BootTarget): Promise<void> {
    await this.setFirstBootDevice(target, false);
  }

  /** The iDRAC's `ServerBoot.1` settings: first boot device, for the next boot only or for every boot. */
  private async setFirstBootDevice(target: BootTarget, once: boolean): Promise<void> {
    const operation = `boot ${once ? "once" : "first"} ${target}`;
    const choice = firstBootDevice(target, (await this.system()).Model);
    if ("unsupported" in choice) this.notSupported(operation, choice.unsupported);
    await this.attributes.write(operation, {
      "ServerBoot.1.FirstBootDevice": choice.device,
      "ServerBoot.1.BootOnce": once ? "Enabled" : "Disabled",
    });
  }

  override async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    return this.dpuBoot.set(mac);
  }

  override async isBootOrderDpuFirst(mac: string): Promise<boolean> {
    return this.dpuBoot.isFirst(mac);
  }

  // ---- BIOS -------------------------------------------------------------------------------------------

  /** Stages the attributes; the returned job applies them at the next reboot. */
  override async setBios(attributes: BiosAttributes): Promise<JobRef> {
    if (Object.keys(attributes).length === 0) throw new InvalidArgumentError("no BIOS attributes to set");
    return this.staging.stage("set BIOS", attributes);
  }

  /** Deletes the queued jobs, then the staged values (Dell's ClearPending, else re-staging current values). */
  override async clearPendingBios(): Promise<void> {
    await this.jobs.clear("clear pending BIOS");
    if (Object.keys(await this.pendingBios()).length === 0) return;
    const target = oemActionTarget(
      await this.client.get(await this.biosSettingsPath()),
      "DellManager.ClearPending",
    );
    if (target) {
      try {
        await this.client.post(target, {});
        return;
      } catch (error) {
        if (!hasHttpStatus(error, 404, 405)) throw error;
      }
    }
    await super.clearPendingBios();
  }

  override async machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult> {
    return this.setup.apply(options);
  }

  override async machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    return this.setup.status(options);
  }

  // ---- lockdown and serial console --------------------------------------------------------------------

  override async setLockdown(enabled: boolean): Promise<void> {
    return enabled ? this.lockdown.enable() : this.lockdown.disable();
  }

  override async lockdownStatus(): Promise<TriStateStatus> {
    return this.lockdown.status();
  }

  /** Remote access on the iDRAC (applied at once), then BIOS redirection (staged for the next reboot). */
  override async setupSerialConsole(): Promise<void> {
    const operation = "serial console setup";
    await this.attributes.write(operation, REMOTE_ACCESS);
    const current = await this.bios();
    await this.staging.ensure(operation, serialConsoleAttributes(current), current);
  }

  override async serialConsoleStatus(): Promise<TriStateStatus> {
    const [bios, oem] = await Promise.all([this.bios(), this.attributes.read()]);
    return evaluateChecks([...remoteAccessChecks(oem), ...serialConsoleChecks(bios)]);
  }

  // ---- accounts ---------------------------------------------------------------------------------------

  /** iDRAC has a fixed table of accounts and refuses POST: a user is created by filling an empty slot. */
  override async createAccount(userName: string, password: string, role: AccountRole): Promise<AccountInfo> {
    const accounts = await this.accountResources();
    if (accounts.some((account) => account.UserName === userName)) throw new AccountExistsError(userName);
    const slot = freeAccountSlot(accounts);
    if (!slot) throw new AccountSlotsFullError(accounts.length);
    await withoutSecretsInErrors([password], () =>
      this.client.patch(slot["@odata.id"] as string, {
        UserName: userName,
        Password: password,
        RoleId: role,
        Enabled: true,
      }),
    );
    const created = (await this.accounts()).find((account) => account.userName === userName);
    if (!created) {
      throw new RacksmithError(
        "account_not_created",
        "INTERNAL",
        `the iDRAC accepted ${userName} but does not list it`,
      );
    }
    return created;
  }

  /** iDRAC accounts cannot be deleted: the slot is disabled, then its name blanked so it is free again. */
  override async deleteAccount(userName: string): Promise<void> {
    const path = (await this.findAccount(userName))["@odata.id"] as string;
    await this.client.patch(path, DISABLE_ACCOUNT);
    await this.client.patch(path, FREE_ACCOUNT);
  }

  override async changePassword(userName: string, newPassword: string): Promise<void> {
    await withoutSecretsInErrors([newPassword], () => super.changePassword(userName, newPassword));
  }

  /**
   * iDRAC shows its lockout policy but keeps it read-only (it offers IP blocking instead). A policy it already
   * has is accepted as is; any other is refused rather than pretended.
   */
  override async setPasswordPolicy(policy: PasswordPolicy): Promise<void> {
    const wanted = Object.entries(policy).filter(([, value]) => value !== undefined);
    if (wanted.length === 0) throw new InvalidArgumentError("password policy has no setting to change");
    const current: PasswordPolicy = await this.passwordPolicy();
    const differs = wanted.filter(([key, value]) => current[key as keyof PasswordPolicy] !== value);
    if (differs.length === 0) return;
    const asked = differs.map(([key, value]) => `${key}=${value}`).join(", ");
    this.notSupported(
      "set password policy",
      `the iDRAC's account lockout and password length settings are read-only (wanted ${asked}, it has ${JSON.stringify(current)})`,
    );
  }

  override async changeUefiPassword(currentPassword: string, newPassword: string): Promise<JobRef> {
    return this.setupPassword.change(currentPassword, newPassword);
  }

  // ---- firmware and jobs ------------------------------------------------------------------------------

  /** Multipart uploads need an (empty) `Oem` object in their parameters on iDRAC; the rest is standard. */
  override async updateFirmware(request: FirmwareUpdateRequest): Promise<JobRef> {
    if (request.method !== "multipart") return super.updateFirmware(request);
    const service = await this.updateService();
    const uri =
      service.MultipartHttpPushUri ??
      `${service["@odata.id"] ?? "/redfish/v1/UpdateService"}/MultipartUpload`;
    const response = await this.client.postMultipart(
      uri,
      {
        parameters: {
          Targets: request.targets ?? [],
          "@Redfish.OperationApplyTime": request.applyTime ?? "Immediate",
          Oem: {},
        },
        file: { filename: request.filename, data: request.data },
      },
      { timeoutMs: FIRMWARE_UPLOAD_TIMEOUT_MS },
    );
    const location = response.location ?? (response.body as RedfishObject | undefined)?.["@odata.id"];
    if (typeof location !== "string") throw new JobNotCreatedError("firmware upload", uri);
    return jobRefOf(location, "task");
  }

  /** Dell jobs by their `JobState` (a stuck "initialization failure" job is failed); tasks as the standard. */
  override async jobStatus(job: JobRef): Promise<JobStatus> {
    return job.kind === "job" ? this.jobs.status(job) : super.jobStatus(job);
  }

  // ---- security ---------------------------------------------------------------------------------------

  /** Staged as BIOS attributes: the BIOS clears the TPM at the next reboot. */
  override async clearTpm(): Promise<void> {
    await this.staging.stage("TPM clear", TPM_CLEAR);
  }
}
