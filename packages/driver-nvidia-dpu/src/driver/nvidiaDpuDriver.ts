import {
  type BiosAttributes,
  BootOptionNotFoundError,
  type BootOrderInfo,
  type BootTarget,
  type DriveInfo,
  type EventLogQuery,
  type ExplorationReport,
  isNotSupported,
  type JobRef,
  type LogEntryInfo,
  type MachineSetupOptions,
  type MachineSetupResult,
  type MachineSetupStatus,
  moveToFront,
  type NicMode,
  type PasswordPolicy,
  type PcieDeviceInfo,
  type PowerAction,
  type PowerMetrics,
  pickLogService,
  powerMetricsFrom,
  RacksmithError,
  RedfishStandard,
  requireMac,
  resolveBiosProfile,
  type SecureBootStatus,
  type TriStateStatus,
  toPcieDeviceInfo,
  trimSerial,
} from "@racksmith/core";
import {
  type Chassis,
  type ComputerSystem,
  type Diagnostic,
  PasswordChangeRequiredError,
  type PCIeDevice,
  type Power,
  RedfishHttpError,
  type SoftwareInventory,
} from "@racksmith/core/redfish";
import {
  advertisedAction,
  allowedParameterValues,
  type BluefieldGeneration,
  type BmcFirmwareVersion,
  BOOT_FIRST_PREFIX,
  baseMacFromOem,
  baseMacFromSysImage,
  bluefieldGeneration,
  CARD_CHASSIS_ID,
  isOlderThan,
  isSecretAttribute,
  maskSecrets,
  NIC_MODE_ATTRIBUTE,
  NIC_MODE_MIN_FIRMWARE,
  NIC_MODE_VALUE,
  type NvidiaManagerOem,
  type NvidiaSystemOem,
  OVERRIDE_TARGET,
  optionMac,
  parseBmcFirmware,
  pickBootFirstOption,
  pickDpuHttpOption,
  RESET_EFI_VARS_ATTRIBUTE,
  reportedNicMode,
  SYS_IMAGE_FIRMWARE_ID,
  UEFI_PASSWORD_ATTRIBUTES,
  type WithSettingsObject,
} from "../bluefield/index.js";
import { BaseMacUnavailableError, UefiPasswordChangeError } from "../errors.js";
import {
  type MachineSetupPlan,
  machineSetupDiffs,
  planMachineSetup,
  respelledAttributes,
} from "../setup/index.js";

export const DRIVER_NAME = "nvidia-dpu";

const NO_LOCKDOWN = "the BlueField BMC has no lockdown setting; lock the host through its own BMC";
const NO_SERIAL_CONSOLE =
  "the BlueField console (SSH on port 2200, IPMI SOL) is always provided by the BMC firmware and has no Redfish setting";

/**
 * NVIDIA BlueField-2/3 DPU BMC (OpenBMC, system `Bluefield`, manager `Bluefield_BMC`, chassis `Card1`). Boot
 * and BIOS changes are staged in pending-settings objects that the DPU's UEFI applies at its next boot; NIC/DPU
 * mode, rshim and the base MAC come from NVIDIA OEM resources; lockdown, serial console setup and TPM do not
 * exist on the DPU's BMC.
 */
export class NvidiaDpuDriver extends RedfishStandard {
  override readonly name = DRIVER_NAME;
  private knownGeneration: { value: BluefieldGeneration | undefined } | undefined;

  // ---- BlueField facts --------------------------------------------------------------------------------

  /** 2 or 3, from the system model, else the card model or part number; undefined when none tells. */
  async generation(): Promise<BluefieldGeneration | undefined> {
    if (!this.knownGeneration) {
      const [system, card] = await Promise.all([this.system(), this.cardChassis()]);
      const value = bluefieldGeneration({
        systemModel: system.Model,
        cardModel: card?.Model,
        partNumber: card?.PartNumber ?? undefined,
      });
      this.knownGeneration = { value };
    }
    return this.knownGeneration.value;
  }

  /** The DPU's serial number as the host BMC reports it for the card: `Card1`'s, else the system's. */
  async serialNumber(): Promise<string> {
    const [card, system] = await Promise.all([this.cardChassis(), this.system()]);
    const serial = trimSerial(card?.SerialNumber) ?? trimSerial(system.SerialNumber);
    if (!serial) {
      throw new RacksmithError(
        "no_serial_number",
        "FAILED_PRECONDITION",
        "neither Card1 nor the system reports a serial number",
      );
    }
    return serial;
  }

  /** The card chassis: `Card1`, else the first chassis of type Card. */
  protected async cardChassis(): Promise<Chassis | undefined> {
    const all = await this.allChassis();
    return (
      all.find((chassis) => chassis.Id === CARD_CHASSIS_ID) ??
      all.find((chassis) => chassis.ChassisType === "Card")
    );
  }

  protected async firmware(): Promise<BmcFirmwareVersion | undefined> {
    return parseBmcFirmware((await this.manager()).FirmwareVersion);
  }

  /** `Systems/{s}/Oem/Nvidia`; undefined on firmware that has none. */
  protected async systemOem(): Promise<NvidiaSystemOem | undefined> {
    return this.client
      .get<NvidiaSystemOem>(`${await this.systemPath()}/Oem/Nvidia`)
      .catch(undefinedIfMissing);
  }

  /** Where boot changes are staged: the system's `@Redfish.Settings` object, applied by UEFI at the next boot. */
  protected async systemSettingsPath(system?: ComputerSystem): Promise<string> {
    const resource = (system ?? (await this.system())) as ComputerSystem & WithSettingsObject;
    return (
      resource["@Redfish.Settings"]?.SettingsObject?.["@odata.id"] ?? `${await this.systemPath()}/Settings`
    );
  }

  // ---- power ------------------------------------------------------------------------------------------

  override async power(action: PowerAction): Promise<void> {
    if (action === "ACPowercycle") {
      this.notSupported(
        "power ACPowercycle",
        "the DPU is powered by its host: power-cycle the host server instead",
      );
    }
    await super.power(action);
  }

  // ---- boot -------------------------------------------------------------------------------------------

  /** The order the DPU boots with next: the staged order when one is pending, else the current one. */
  protected async nextBootOrder(): Promise<BootOrderInfo> {
    const [current, settingsPath] = await Promise.all([this.bootOptions(), this.systemSettingsPath()]);
    const staged = (await this.client.get<ComputerSystem>(settingsPath).catch(undefinedIfMissing))?.Boot
      ?.BootOrder;
    return staged && staged.length > 0 ? { ...current, order: staged } : current;
  }

  override async bootOnce(target: BootTarget): Promise<void> {
    const system = await this.system();
    const operation = `boot once ${target}`;
    if (!system.Boot) this.notSupported(operation, "the system has no Boot settings");
    const annotations = system.Boot as Record<string, unknown>;
    const modes = annotations["BootSourceOverrideEnabled@Redfish.AllowableValues"];
    if (Array.isArray(modes) && !modes.includes("Once")) {
      this.notSupported(operation, `the BMC allows override modes ${modes.join(", ")}`);
    }
    const allowed = system.Boot["BootSourceOverrideTarget@Redfish.AllowableValues"];
    const value = OVERRIDE_TARGET[target];
    let override: Record<string, string> = { BootSourceOverrideTarget: value };
    if (allowed && !allowed.includes(value)) {
      if (target !== "hdd" || !allowed.includes("UefiBootNext")) {
        this.notSupported(operation, `the BMC allows override targets ${allowed.join(", ")}`);
      }
      // This UEFI has no Hdd override: boot the disk entry once through BootNext instead.
      const { order, options } = await this.nextBootOrder();
      const option = pickBootFirstOption(options, order, "hdd");
      if (!option) throw new BootOptionNotFoundError(BOOT_FIRST_PREFIX.hdd);
      override = { BootSourceOverrideTarget: "UefiBootNext", BootNext: option.reference };
    }
    await this.client.patch(await this.systemSettingsPath(system), {
      Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideMode: "UEFI", ...override },
    });
  }

  override async bootFirst(target: BootTarget): Promise<void> {
    const { order, options } = await this.nextBootOrder();
    const option = pickBootFirstOption(options, order, target);
    if (!option) throw new BootOptionNotFoundError(BOOT_FIRST_PREFIX[target]);
    if (order[0] !== option.reference) await this.setBootOrder(moveToFront(order, option.reference));
  }

  override async setBootOrderDpuFirst(mac: string): Promise<JobRef | undefined> {
    const wanted = requireMac(mac);
    const { order, options } = await this.nextBootOrder();
    const option = pickDpuHttpOption(options, wanted);
    if (!option) throw new BootOptionNotFoundError(`HTTP boot from ${wanted}`);
    if (order[0] !== option.reference) await this.setBootOrder(moveToFront(order, option.reference));
    return undefined;
  }

  /** True when the order the DPU boots with next starts with a network boot option of this MAC. */
  override async isBootOrderDpuFirst(mac: string): Promise<boolean> {
    const wanted = requireMac(mac);
    const { order, options } = await this.nextBootOrder();
    const first = options.find((option) => option.reference === order[0]);
    return first !== undefined && optionMac(first) === wanted;
  }

  protected override async setBootOrder(order: string[]): Promise<void> {
    await this.client.patch(await this.systemSettingsPath(), { Boot: { BootOrder: order } });
  }

  // ---- BIOS -------------------------------------------------------------------------------------------

  override async bios(): Promise<BiosAttributes> {
    return maskSecrets(await super.bios());
  }

  override async pendingBios(): Promise<BiosAttributes> {
    return maskSecrets(await super.pendingBios());
  }

  /** Restages the current value of each pending attribute; a staged UEFI password cannot be withdrawn. */
  override async clearPendingBios(): Promise<void> {
    const keys = Object.keys(await this.pendingBios()).filter((key) => !isSecretAttribute(key));
    if (keys.length === 0) return;
    const current = await super.bios();
    await this.client.patch(await this.biosSettingsPath(), {
      Attributes: Object.fromEntries(keys.map((key) => [key, current[key] ?? null])),
    });
  }

  /** The BlueField's "BIOS defaults" is `ResetEfiVars`, applied at the next boot. */
  override async resetBios(): Promise<void> {
    await this.client.patch(await this.biosSettingsPath(), {
      Attributes: { [RESET_EFI_VARS_ATTRIBUTE]: true },
    });
  }

  /**
   * NICo's DPU setup: secure boot off, host privilege restricted and the Arm cores owning the NIC (one BIOS
   * PATCH with the operator profile), host rshim off on BF3, HTTP boot once; plus the boot order when a MAC is
   * given. Everything takes effect at the DPU's next boot.
   */
  override async machineSetup(options: MachineSetupOptions): Promise<MachineSetupResult> {
    const [plan, secureBoot] = await Promise.all([this.machineSetupPlan(options), this.secureBootIfAny()]);
    if (secureBoot && secureBoot.enabled !== false) await this.setSecureBoot(false);
    await this.stageSetupAttributes(plan);
    if (plan.hostRshim && plan.hostRshim.current !== "Disabled") {
      await this.client.post(plan.hostRshim.target, { HostRshim: "Disabled" });
    }
    await this.bootOnce("uefiHttp");
    if (options.bootInterfaceMac) await this.setBootOrderDpuFirst(options.bootInterfaceMac);
    return { rebootRequired: true };
  }

  override async machineSetupStatus(options: MachineSetupOptions): Promise<MachineSetupStatus> {
    const [plan, secureBoot] = await Promise.all([this.machineSetupPlan(options), this.secureBootIfAny()]);
    const diffs = machineSetupDiffs(plan, secureBoot);
    if (options.bootInterfaceMac && !(await this.isBootOrderDpuFirst(options.bootInterfaceMac))) {
      diffs.push({
        key: "BootOrder[0]",
        expected: `HTTP boot from ${requireMac(options.bootInterfaceMac)}`,
        actual: "other",
      });
    }
    return { done: diffs.length === 0, diffs };
  }

  private async machineSetupPlan(options: MachineSetupOptions): Promise<MachineSetupPlan> {
    const [system, current, firmware, generation, oem] = await Promise.all([
      this.system(),
      super.bios(),
      this.firmware(),
      this.generation(),
      this.systemOem(),
    ]);
    const profile = options.biosProfile ?? resolveBiosProfile(this.context.settings, system.Model);
    return planMachineSetup({ current, firmware, generation, oem, profile });
  }

  /** One PATCH; keys the BMC did not list are retried once under their other spelling if it refuses them. */
  private async stageSetupAttributes(plan: MachineSetupPlan): Promise<void> {
    const path = await this.biosSettingsPath();
    try {
      await this.client.patch(path, { Attributes: plan.attributes });
    } catch (error) {
      if (!(error instanceof RedfishHttpError && error.httpStatus === 400 && plan.guessed.length > 0))
        throw error;
      this.logger.warn(
        { keys: plan.guessed.map((resolved) => resolved.key) },
        "BMC refused BIOS keys it does not list; trying their other spelling",
      );
      await this.client.patch(path, { Attributes: respelledAttributes(plan) });
    }
  }

  private async secureBootIfAny(): Promise<SecureBootStatus | undefined> {
    return this.secureBootStatus().catch((error: unknown) => {
      if (isNotSupported(error)) return undefined;
      throw error;
    });
  }

  // ---- lockdown and serial console: not on the DPU's BMC ----------------------------------------------

  override async setLockdown(_enabled: boolean): Promise<void> {
    this.notSupported("lockdown", NO_LOCKDOWN);
  }

  override async lockdownStatus(): Promise<TriStateStatus> {
    this.notSupported("lockdown status", NO_LOCKDOWN);
  }

  override async setupSerialConsole(): Promise<void> {
    this.notSupported("serial console setup", NO_SERIAL_CONSOLE);
  }

  override async serialConsoleStatus(): Promise<TriStateStatus> {
    this.notSupported("serial console status", NO_SERIAL_CONSOLE);
  }

  // ---- accounts ---------------------------------------------------------------------------------------

  override async setPasswordPolicy(_policy: PasswordPolicy): Promise<void> {
    this.notSupported("set password policy", "the BlueField BMC's account lockout policy is read-only");
  }

  /** Staged as the `CurrentUefiPassword` / `UefiPassword` BIOS attributes, applied at the next boot. */
  override async changeUefiPassword(
    currentPassword: string,
    newPassword: string,
  ): Promise<JobRef | undefined> {
    const path = await this.biosSettingsPath();
    try {
      await this.client.patch(path, {
        Attributes: {
          [UEFI_PASSWORD_ATTRIBUTES.current]: currentPassword,
          [UEFI_PASSWORD_ATTRIBUTES.next]: newPassword,
        },
      });
    } catch (error) {
      if (error instanceof RedfishHttpError && !(error instanceof PasswordChangeRequiredError)) {
        throw new UefiPasswordChangeError(
          error.httpStatus,
          error.messages.map((message) => message.messageId),
        );
      }
      throw error;
    }
    return undefined;
  }

  // ---- telemetry and logs -----------------------------------------------------------------------------

  override async powerMetrics(): Promise<PowerMetrics> {
    const link = (await this.cardChassis())?.Power?.["@odata.id"];
    if (!link) this.notSupported("power metrics", "the card chassis has no Power resource");
    const metrics = powerMetricsFrom(await this.client.get<Power>(link));
    if (metrics.consumedWatts === null && metrics.supplies.length === 0) {
      this.notSupported(
        "power metrics",
        "the BlueField BMC does not meter the card's power (no PowerConsumedWatts, no supplies); rail voltages are in sensors",
      );
    }
    return metrics;
  }

  override async systemEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    return this.systemLog("SEL", "system event log", query);
  }

  override async bmcEventLog(query: EventLogQuery = {}): Promise<LogEntryInfo[]> {
    return this.systemLog("EventLog", "BMC event log", query);
  }

  /** Both logs live under the system; the manager's journal is a debug log, not an event log. */
  private async systemLog(id: string, operation: string, query: EventLogQuery): Promise<LogEntryInfo[]> {
    const service = pickLogService(await this.logServices("system"), [id]);
    if (!service) this.notSupported(operation, `the system has no readable LogServices/${id}`);
    return this.readLog(service, query);
  }

  // ---- security ---------------------------------------------------------------------------------------

  override async clearTpm(): Promise<void> {
    this.notSupported("TPM clear", "the BlueField has no TPM");
  }

  // ---- inventory --------------------------------------------------------------------------------------

  /** Devices the BMC enumerates, the card's first; the BlueField firmware we know enumerates none (empty list). */
  override async pcieDevices(): Promise<PcieDeviceInfo[]> {
    const chassis = (await this.allChassis())
      .filter((candidate) => candidate.PCIeDevices?.["@odata.id"])
      .sort((a, b) => Number(b.Id === CARD_CHASSIS_ID) - Number(a.Id === CARD_CHASSIS_ID));
    for (const candidate of chassis) {
      const devices = await this.members<PCIeDevice>(candidate.PCIeDevices?.["@odata.id"] as string);
      if (devices.length > 0) return devices.map(toPcieDeviceInfo);
    }
    return [];
  }

  /** The BMC answers an empty Storage collection with `"Members": null`: no drives, not a malformed answer. */
  override async drives(): Promise<DriveInfo[]> {
    const link = (await this.system()).Storage?.["@odata.id"];
    if (link) {
      const members = (await this.client.get(link)).Members;
      if (!Array.isArray(members) || members.length === 0) return [];
    }
    return super.drives();
  }

  // ---- DPU --------------------------------------------------------------------------------------------

  /** BF3 reports the mode in `Oem.Nvidia.Mode`, BF2 in the `NicMode` BIOS attribute; each falls back to the other. */
  override async nicMode(): Promise<NicMode> {
    await this.requireNicModeFirmware("NIC mode");
    const [generation, oem, bios] = await Promise.all([
      this.generation(),
      this.systemOem(),
      super.bios().catch((error: unknown): BiosAttributes => {
        if (isNotSupported(error)) return {};
        throw error;
      }),
    ]);
    const mode = reportedNicMode(generation, oem?.Mode, bios[NIC_MODE_ATTRIBUTE]);
    if (!mode) {
      this.notSupported(
        "NIC mode",
        `this ${generationLabel(generation)} firmware reports no mode (no Oem.Nvidia.Mode, no NicMode BIOS attribute)`,
      );
    }
    return mode;
  }

  /** BF3: `Mode.Set`; BF2 (or firmware without the action): the `NicMode` BIOS attribute. Applies at the next boot. */
  override async setNicMode(mode: NicMode): Promise<void> {
    await this.requireNicModeFirmware("set NIC mode");
    const value = NIC_MODE_VALUE[mode];
    const [generation, oem] = await Promise.all([this.generation(), this.systemOem()]);
    const action = generation === 2 ? undefined : advertisedAction(oem, "#Mode.Set");
    if (action) {
      const allowed = allowedParameterValues(action, "Mode");
      if (allowed && !allowed.includes(value)) {
        this.notSupported(`set NIC mode ${mode}`, `the BMC allows only ${allowed.join(", ")}`);
      }
      await this.client.post(action.target, { Mode: value });
      return;
    }
    if (!(NIC_MODE_ATTRIBUTE in (await super.bios()))) {
      this.notSupported(
        "set NIC mode",
        `this ${generationLabel(generation)} firmware has no Mode.Set action and no NicMode BIOS attribute`,
      );
    }
    await this.client.patch(await this.biosSettingsPath(), { Attributes: { [NIC_MODE_ATTRIBUTE]: value } });
  }

  /** Turns on the BMC's own rshim (`Oem.Nvidia.BmcRShim`), through which the DPU OS is installed. */
  override async enableRshim(): Promise<void> {
    const path = `${await this.managerPath()}/Oem/Nvidia`;
    const current = await this.client.get<NvidiaManagerOem>(path).catch(undefinedIfMissing);
    if (!current) this.notSupported("rshim", `the BMC has no ${path} resource`);
    if (current.BmcRShim?.BmcRShimEnabled === true) return;
    await this.client.patch(path, { BmcRShim: { BmcRShimEnabled: true } });
  }

  /** The host-facing pf0 MAC: `Oem.Nvidia.BaseMAC`, else derived from the `DPU_SYS_IMAGE` base GUID. */
  override async baseMac(): Promise<string> {
    const fromOem = baseMacFromOem((await this.systemOem())?.BaseMAC);
    if (fromOem) return fromOem;
    const inventory = (await this.updateService()).FirmwareInventory?.["@odata.id"];
    const image = inventory
      ? await this.client
          .get<SoftwareInventory>(`${inventory}/${SYS_IMAGE_FIRMWARE_ID}`)
          .catch(undefinedIfMissing)
      : undefined;
    const derived = baseMacFromSysImage(image?.Version);
    if (derived) return derived;
    throw new BaseMacUnavailableError(
      image
        ? `${SYS_IMAGE_FIRMWARE_ID} version ${JSON.stringify(image.Version)} is not a base GUID`
        : `no Oem.Nvidia.BaseMAC and no ${SYS_IMAGE_FIRMWARE_ID} firmware entry`,
    );
  }

  private async requireNicModeFirmware(operation: string): Promise<void> {
    const firmware = await this.firmware();
    if (isOlderThan(firmware, NIC_MODE_MIN_FIRMWARE)) {
      this.notSupported(
        operation,
        `needs BMC firmware ${NIC_MODE_MIN_FIRMWARE.text} or later; this BMC runs ${firmware?.text}`,
      );
    }
  }

  // ---- exploration ------------------------------------------------------------------------------------

  /** Pairing matches the DPU by the card's serial (what the host BMC lists), so the system reports that one. */
  override async explore(): Promise<ExplorationReport> {
    const report = await super.explore();
    const card =
      report.chassis.find((chassis) => chassis.id === CARD_CHASSIS_ID) ??
      report.chassis.find((chassis) => chassis.chassisType === "Card");
    const [system, ...others] = report.systems;
    if (!system || !card?.serialNumber || system.serialNumber === card.serialNumber) return report;
    const mismatch: Diagnostic[] = system.serialNumber
      ? [
          {
            severity: "warning",
            path: `/redfish/v1/Chassis/${card.id}`,
            field: "SerialNumber",
            message: `system serial ${system.serialNumber} differs from the card's ${card.serialNumber}; the card's is reported`,
          },
        ]
      : [];
    return {
      ...report,
      systems: [{ ...system, serialNumber: card.serialNumber }, ...others],
      diagnostics: [...report.diagnostics, ...mismatch],
    };
  }
}

function generationLabel(generation: BluefieldGeneration | undefined): string {
  return generation ? `BlueField-${generation}` : "BlueField";
}

/** For optional resources: a 404 means "this firmware has none". */
function undefinedIfMissing(error: unknown): undefined {
  if (error instanceof RedfishHttpError && error.httpStatus === 404) return undefined;
  throw error;
}
