import {
  type AccountInfo,
  type AccountRole,
  attributeDiffs,
  type BiosAttributes,
  BootOptionNotFoundError,
  type BootOrderInfo,
  type BootTarget,
  type DriverContext,
  diffAttributes,
  type EventLogQuery,
  type FirmwareUpdateRequest,
  findDpuBootOption,
  hasErrorCode,
  InvalidArgumentError,
  isNotSupported,
  type JobRef,
  type LogEntryInfo,
  type MachineSetupOptions,
  type MachineSetupResult,
  type MachineSetupStatus,
  moveToFront,
  normalizeMac,
  type PowerAction,
  pickLogService,
  RedfishStandard,
  requireMac,
  resolveBiosProfile,
  type SettingDiff,
  type TriStateStatus,
} from "@racksmith/core";
import type { ActionTarget, ODataLink, RedfishClient, RedfishObject } from "@racksmith/core/redfish";
import {
  BiosStaging,
  machineSetupAttributes,
  matchingAttributeKeys,
  resolveAttributeKeys,
} from "../bios/index.js";
import {
  type BmcAccess,
  isBootOrderUnknown,
  isNotFound,
  updateBusyRefusal,
  withLockdownRefusal,
} from "../bmc/index.js";
import {
  bootFirstPatch,
  dpuFirstPatch,
  isDpuFirstInFixedOrder,
  patchFixedBootOrder,
  readFixedBootOrder,
  withNameMac,
} from "../boot/index.js";
import { BiosAttributeUnknownError, SerialConsoleNotConfigurableError } from "../errors/index.js";
import { uploadMultipart } from "../firmware/index.js";
import { SystemLockdown } from "../lockdown/index.js";
import type { SerialInterface } from "../oem/index.js";
import { serialConsoleStatusOf } from "../serialConsole/index.js";

const HTTP_BOOT_HINT = "the HTTP boot option appears once IPv4HTTPSupport is enabled and the host rebooted";

/** The machine-setup BIOS values for this host, and the profile names this BIOS does not have. */
interface WantedBios {
  attributes: BiosAttributes;
  unknown: Array<[string, BiosAttributes[string]]>;
}

/**
 * Supermicro X12/X13 (and ARS / MGX) BMCs. Differs from the standard in: BIOS attribute keys with firmware
 * suffixes, BIOS changes PATCHed on the Bios resource and staged in `Bios/SD`, lockdown through System
 * Lockdown + KCS privilege + the host interface, a read-only serial console, boot order by category in
 * `Oem/Supermicro/FixedBootOrder`, TPM clear as a BIOS pending operation, the OEM AC power cycle, and
 * multipart firmware targets with Supermicro's preserve options.
 */
export class SupermicroDriver extends RedfishStandard {
  override readonly name = "supermicro";
  private readonly bmc: BmcAccess;
  private readonly staging: BiosStaging;
  private readonly lockdown: SystemLockdown;

  constructor(client: RedfishClient, context: DriverContext) {
    super(client, context);
    this.bmc = {
      client,
      logger: this.logger,
      system: () => this.system(),
      manager: () => this.manager(),
      systemPath: () => this.systemPath(),
      managerPath: () => this.managerPath(),
      biosPath: () => this.biosPath(),
      allChassis: () => this.allChassis(),
      members: <T extends RedfishObject>(path: string) => this.members<T>(path),
    };
    this.staging = new BiosStaging(this.bmc);
    this.lockdown = new SystemLockdown(this.bmc);
  }

  // ---- power ------------------------------------------------------------------------------------------

  override async power(action: PowerAction): Promise<void> {
    if (action !== "ACPowercycle") return super.power(action);
    const system = await this.system();
    const oemActions = system.Actions?.Oem as Record<string, ActionTarget | undefined> | undefined;
    const advertised = oemActions?.["#OemSystemExtensions.Reset"];
    const allowed = advertised?.["ResetType@Redfish.AllowableValues"];
    if (Array.isArray(allowed) && !allowed.includes("ACCycle")) {
      this.notSupported("power ACPowercycle", `the BMC allows only ${allowed.join(", ")}`);
    }
    // Firmware that does not advertise the OEM action may still have it; a 404/405 says it does not.
    const target = advertised?.target ?? `${await this.systemPath()}/Actions/Oem/OemSystemExtensions.Reset`;
    try {
      await this.client.post(target, { ResetType: "ACCycle" });
    } catch (error) {
      if (isNotFound(error, 405)) {
        this.notSupported("power ACPowercycle", "the BMC has no OemSystemExtensions.Reset action");
      }
      throw error;
    }
  }

  // ---- boot -------------------------------------------------------------------------------------------

  override async bootOptions(): Promise<BootOrderInfo> {
    const { order, options } = await super.bootOptions();
    return { order, options: options.map(withNameMac) };
  }

  override bootOnce(target: BootTarget): Promise<void> {
    return withLockdownRefusal(`boot once ${target}`, () => super.bootOnce(target));
  }

  /** By device category in the fixed boot order; a BMC without one gets a continuous override. */
  override async bootFirst(target: BootTarget): Promise<void> {
    const fixed = await readFixedBootOrder(this.bmc);
    if (!fixed) {
      await withLockdownRefusal(`boot first ${target}`, () => this.setBootOverride(target, "Continuous"));
      return;
    }
    await patchFixedBootOrder(
      this.bmc,
      fixed.path,
      bootFirstPatch(fixed.resource, target),
      `boot first ${target}`,
    );
  }

  /**
   * `Boot.BootOrder` when the BMC lists one; the fixed boot order when it does not, or refuses BootOrder as an
   * unknown property (firmware that only changes the OEM order).
   */
  override async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    const wanted = requireMac(mac);
    const { order, options } = await this.bootOptions();
    if (order.length > 0) {
      try {
        await this.putBootOptionFirst(order, options, wanted);
        return undefined;
      } catch (error) {
        if (!isBootOrderUnknown(error)) throw error;
        this.logger.debug({ mac: wanted }, "BootOrder refused as unknown; using the fixed boot order");
      }
    }
    const fixed = await readFixedBootOrder(this.bmc);
    if (!fixed) {
      const hint = "the BMC has no boot order to change";
      throw new BootOptionNotFoundError(`network boot from ${wanted}`, { hint });
    }
    await patchFixedBootOrder(
      this.bmc,
      fixed.path,
      dpuFirstPatch(fixed.resource, wanted),
      "boot order DPU first",
    );
    return undefined;
  }

  /** True when either order the BMC keeps starts with the DPU's preferred (HTTP, else PXE) boot device. */
  override async isBootOrderDpuFirst(mac: string): Promise<boolean> {
    const wanted = requireMac(mac);
    const { order, options } = await this.bootOptions();
    const preferred = findDpuBootOption(options, wanted);
    if (preferred && preferred.enabled !== false && order[0] === preferred.reference) return true;
    const fixed = await readFixedBootOrder(this.bmc);
    return fixed !== undefined && isDpuFirstInFixedOrder(fixed.resource, wanted);
  }

  private async putBootOptionFirst(
    order: string[],
    options: BootOrderInfo["options"],
    mac: string,
  ): Promise<void> {
    const option = findDpuBootOption(options, mac);
    if (!option) throw new BootOptionNotFoundError(`network boot from ${mac}`, { hint: HTTP_BOOT_HINT });
    // The fixed boot order disables whole categories; a disabled option would be skipped even when first.
    const collection = (await this.system()).Boot?.BootOptions?.["@odata.id"];
    if (option.enabled === false && collection) {
      const path = `${collection}/${encodeURIComponent(option.id)}`;
      await withLockdownRefusal("enable boot option", () =>
        this.client.patch(path, { BootOptionEnabled: true }),
      );
    }
    if (order[0] !== option.reference) {
      await withLockdownRefusal("boot order DPU first", () =>
        this.setBootOrder(moveToFront(order, option.reference)),
      );
    }
  }

  // ---- BIOS -------------------------------------------------------------------------------------------

  protected override biosSettingsPath(): Promise<string> {
    return this.staging.settingsPath();
  }

  /** Names are matched to this firmware's suffixed keys; an unknown name fails before anything is sent. */
  override async setBios(attributes: BiosAttributes): Promise<JobRef | undefined> {
    if (Object.keys(attributes).length === 0) throw new InvalidArgumentError("no BIOS attributes to set");
    const resolved = resolveAttributeKeys(attributes, await this.bios());
    if (resolved.unknown.length) throw new BiosAttributeUnknownError(resolved.unknown);
    await this.staging.stage(resolved.attributes, "set BIOS");
    return undefined;
  }

  override async pendingBios(): Promise<BiosAttributes> {
    const [current, staged] = await Promise.all([this.bios(), this.staging.staged()]);
    return diffAttributes(current, staged);
  }

  /** Redfish has no discard: stage the current value of every pending attribute. */
  override async clearPendingBios(): Promise<void> {
    const [current, staged] = await Promise.all([this.bios(), this.staging.staged()]);
    const pending = Object.keys(diffAttributes(current, staged));
    if (pending.length === 0) return;
    await this.staging.stage(
      Object.fromEntries(pending.map((key) => [key, current[key] ?? null])),
      "clear BIOS",
    );
  }

  /** NICo's Supermicro BIOS settings plus the operator's profile for this model; the boot order when asked. */
  override async machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult> {
    const [system, current, staged] = await Promise.all([this.system(), this.bios(), this.staging.staged()]);
    const wanted = this.wantedBios(current, system.Model, options);
    if (wanted.unknown.length) throw new BiosAttributeUnknownError(wanted.unknown.map(([name]) => name));
    const toStage = diffAttributes({ ...current, ...staged }, wanted.attributes);
    if (Object.keys(toStage).length) await this.staging.stage(toStage, "machine setup");
    let bootPending = false;
    if (options.bootInterfaceMac) {
      try {
        await this.setBootOrderDpuFirst(options.bootInterfaceMac);
      } catch (error) {
        if (!hasErrorCode(error, "boot_option_not_found")) throw error;
        // The DPU's HTTP boot device shows up only after the BIOS change above took effect: run again then.
        bootPending = true;
        this.logger.info(
          { mac: options.bootInterfaceMac },
          "DPU boot option not listed yet; reboot and rerun",
        );
      }
    }
    const biosPending = Object.keys(diffAttributes(current, wanted.attributes)).length > 0;
    return { rebootRequired: biosPending || bootPending };
  }

  override async machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    const [system, current] = await Promise.all([this.system(), this.bios()]);
    const wanted = this.wantedBios(current, system.Model, options);
    const diffs: SettingDiff[] = [
      ...attributeDiffs(wanted.attributes, current),
      ...wanted.unknown.map(([key, value]) => ({ key, expected: String(value), actual: "(missing)" })),
    ];
    const serial = await this.serialConsoleStatus().catch((error: unknown) => {
      if (isNotSupported(error)) return undefined;
      throw error;
    });
    if (serial && serial.state !== "enabled") {
      diffs.push({
        key: "SerialConsole",
        expected: "enabled",
        actual: `${serial.state} (${serial.message})`,
      });
    }
    const mac = options.bootInterfaceMac;
    if (mac && !(await this.isBootOrderDpuFirst(mac))) {
      diffs.push({
        key: "BootOrder",
        expected: `boot from ${normalizeMac(mac)} first`,
        actual: "another device first",
      });
    }
    return { done: diffs.length === 0, diffs };
  }

  private wantedBios(
    current: BiosAttributes,
    model: string | undefined,
    options: MachineSetupOptions,
  ): WantedBios {
    const profile = options.biosProfile ?? resolveBiosProfile(this.context.settings, model) ?? {};
    const resolved = resolveAttributeKeys(profile, current);
    return {
      attributes: { ...machineSetupAttributes(current), ...resolved.attributes },
      unknown: resolved.unknown.map((name) => [name, profile[name] ?? null]),
    };
  }

  // ---- lockdown ---------------------------------------------------------------------------------------

  override setLockdown(enabled: boolean): Promise<void> {
    return this.lockdown.set(enabled);
  }

  override lockdownStatus(): Promise<TriStateStatus> {
    return this.lockdown.status();
  }

  // ---- serial console ---------------------------------------------------------------------------------

  /** Supermicro keeps SOL on and read-only over Redfish: setup checks it and says so when it is not on. */
  override async setupSerialConsole(): Promise<void> {
    const status = await this.serialConsoleStatus();
    if (status.state !== "enabled")
      throw new SerialConsoleNotConfigurableError(`${status.state}: ${status.message}`);
  }

  override async serialConsoleStatus(): Promise<TriStateStatus> {
    const [system, manager] = await Promise.all([this.system(), this.manager()]);
    if (!system.SerialConsole) {
      this.notSupported("serial console status", "the system has no SerialConsole (firmware too old)");
    }
    const portsLink = (manager.SerialInterfaces as ODataLink | undefined)?.["@odata.id"];
    const port = portsLink ? (await this.members<SerialInterface>(portsLink))[0] : undefined;
    return serialConsoleStatusOf(system.SerialConsole, port);
  }

  // ---- accounts ---------------------------------------------------------------------------------------

  override async createAccount(userName: string, password: string, role: AccountRole): Promise<AccountInfo> {
    await this.checkPasswordLength(password);
    return super.createAccount(userName, password, role);
  }

  override async changePassword(userName: string, newPassword: string): Promise<void> {
    await this.checkPasswordLength(newPassword);
    await super.changePassword(userName, newPassword);
  }

  /** The BMC's length limits (8–20 on X13), checked first so the refusal is clear and nothing is sent. */
  private async checkPasswordLength(password: string): Promise<void> {
    const { MinPasswordLength: min, MaxPasswordLength: max } = await this.accountService();
    if ((min !== undefined && password.length < min) || (max !== undefined && password.length > max)) {
      throw new InvalidArgumentError(
        `the BMC accepts passwords of ${min ?? 1} to ${max ?? "any number of"} characters; the new one has ${password.length}`,
      );
    }
  }

  // ---- firmware ---------------------------------------------------------------------------------------

  override async updateFirmware(request: FirmwareUpdateRequest): Promise<JobRef> {
    try {
      return await withLockdownRefusal("firmware update", async () =>
        request.method === "multipart"
          ? uploadMultipart(this.bmc, await this.updateService(), request)
          : super.updateFirmware(request),
      );
    } catch (error) {
      throw updateBusyRefusal(error) ?? error;
    }
  }

  // ---- event logs -------------------------------------------------------------------------------------

  /** The system's `Log1`, the SEL ("Health Event Log"). */
  override async systemEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const service = pickLogService(await this.logServices("system"), ["SEL", "Log1"]);
    if (!service) this.notSupported("system event log", "the system has no SEL log service");
    return this.readLog(service, query);
  }

  /** The manager's `Log1`, the BMC's maintenance event log (logins, configuration changes). */
  override async bmcEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    const services = await this.logServices("manager");
    const service = pickLogService(services, ["Log1"]) ?? services.find((s) => s.Entries?.["@odata.id"]);
    if (!service) this.notSupported("BMC event log", "the manager has no log service with entries");
    return this.readLog(service, query);
  }

  // ---- security ---------------------------------------------------------------------------------------

  /** The BIOS runs the TPM clear on the next boot when its `PendingOperation` attribute asks for it. */
  override async clearTpm(): Promise<void> {
    const keys = matchingAttributeKeys("PendingOperation", await this.bios());
    if (keys.length === 0) this.notSupported("TPM clear", "the BIOS has no PendingOperation attribute");
    await this.staging.stage(Object.fromEntries(keys.map((key) => [key, "TPM Clear"])), "TPM clear");
  }
}
