import {
  type BmcCapability,
  type BmcDriver,
  type EthernetInterfaceInfo,
  type HardwareIdentity,
  type JobRef,
  normalizeMac,
  redfishStandardDriver,
  selectDriver,
} from "@racksmith/core";
import type { BiosValue } from "@racksmith/core/redfish";
import type { CheckContext } from "./types.js";

/** An expectation the driver did not meet. */
export class ConformanceFailure extends Error {}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceFailure(message);
}

export interface CapabilityCheck {
  /** Full exercise when the driver declares the capability. */
  run(context: CheckContext): Promise<void>;
  /** One representative call that must answer `not_supported` when the capability is not declared. */
  probe(driver: BmcDriver): Promise<unknown>;
}

const ACCOUNT = { user: "rsconform", password: "Conform-2024!", next: "Conform-2025!" };

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForJob(context: CheckContext, job: JobRef): Promise<void> {
  const status = await waitFor(
    () => context.driver.jobStatus(job),
    (s) => s.state !== "scheduled" && s.state !== "running",
    15_000,
  );
  expect(
    status.state === "completed",
    `job ${job.id} ended ${status.state}${status.message ? `: ${status.message}` : ""}`,
  );
  context.check(`job ${job.id} completed`);
}

/**
 * The MACs of physical interfaces. A VLAN interface (`interfaceType: "Virtual"`) carries its parent's MAC, so
 * it never counts as a second NIC with that MAC.
 */
function physicalMacs(interfaces: readonly EthernetInterfaceInfo[]): string[] {
  return interfaces.flatMap((i) => (i.mac && i.interfaceType !== "Virtual" ? [i.mac] : []));
}

/** The MAC of a network boot option (HTTP first): what a DPU-first boot order would point at. */
async function bootInterfaceMac(driver: BmcDriver): Promise<string | undefined> {
  const { options } = await driver.bootOptions();
  const http = options.find((o) => o.mac && /http/i.test(`${o.displayName} ${o.uefiDevicePath ?? ""}`));
  return (http ?? options.find((o) => o.mac))?.mac;
}

/** A different value of the same type, to stage a visible BIOS change. */
function changedValue(value: BiosValue): BiosValue {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") return value + 1;
  return value === "Enabled" ? "Disabled" : value === "Disabled" ? "Enabled" : "RacksmithConformance";
}

export const CAPABILITY_CHECKS: Readonly<Record<BmcCapability, CapabilityCheck>> = {
  power: {
    async run({ driver, check, settleTimeoutMs }) {
      for (const [action, expected] of [
        ["GracefulShutdown", "Off"],
        ["ForceOff", "Off"],
        ["On", "On"],
      ] as const) {
        await driver.power(action);
        const state = await waitFor(
          () => driver.powerState(),
          (s) => s === expected,
          settleTimeoutMs,
        );
        expect(state === expected, `after ${action} the power state is ${state}, expected ${expected}`);
        check(`${action} → ${expected}`);
      }
    },
    probe: (driver) => driver.powerState(),
  },
  acPowerCycle: {
    async run({ driver, check }) {
      await driver.power("ACPowercycle");
      check("ACPowercycle accepted");
    },
    probe: (driver) => driver.power("ACPowercycle"),
  },
  bmcReset: {
    async run({ driver, check }) {
      await driver.bmcReset();
      check("BMC reset accepted");
    },
    probe: (driver) => driver.bmcReset(),
  },
  bootOnce: {
    async run({ driver, check }) {
      await driver.bootOnce("pxe");
      check("boot once PXE accepted");
    },
    probe: (driver) => driver.bootOnce("pxe"),
  },
  bootFirst: {
    async run({ driver, check }) {
      const before = await driver.bootOptions();
      await driver.bootFirst("hdd");
      check("boot first HDD accepted");
      const after = await driver.bootOptions();
      if (after.order.join() !== before.order.join()) {
        const first = after.options.find((o) => o.reference === after.order[0]);
        expect(first, `the new first boot entry ${after.order[0]} is not a boot option`);
        check(`boot order now starts with ${first.displayName}`);
      }
    },
    probe: (driver) => driver.bootFirst("hdd"),
  },
  bootOrderDpuFirst: {
    async run(context) {
      const { driver, check } = context;
      // With no boot option naming a MAC, ask for a NIC's: the driver must then say it cannot (not_supported).
      const mac =
        (await bootInterfaceMac(driver)) ?? physicalMacs(await driver.systemEthernetInterfaces())[0];
      expect(mac, "no boot option and no system interface carries a MAC to put first");
      const job = await driver.setBootOrderDpuFirst(mac);
      check(`boot order DPU-first by ${mac}${job ? ` (job ${job.id})` : ""}`);
      // Vendors apply boot order changes as a job at the next boot, or stage them until then.
      if (job || !(await driver.isBootOrderDpuFirst(mac))) {
        await driver.power("ForceRestart");
        check("rebooted to apply");
        if (job) await waitForJob(context, job);
      }
      expect(await driver.isBootOrderDpuFirst(mac), `boot order does not start with ${mac} after the change`);
      check("boot order check confirms it");
    },
    probe: (driver) => driver.isBootOrderDpuFirst("02:00:00:00:00:01"),
  },
  bios: {
    async run({ driver, check }) {
      const attributes = await driver.bios();
      const count = Object.keys(attributes).length;
      expect(count > 8, `BIOS has only ${count} attributes`);
      check(`${count} BIOS attributes`);
    },
    probe: (driver) => driver.bios(),
  },
  biosPending: {
    async run({ driver, check }) {
      const current = await driver.bios();
      const pendingBefore = await driver.pendingBios();
      const [key, value] =
        Object.entries(current).find(([k, v]) => typeof v === "boolean" && !(k in pendingBefore)) ??
        Object.entries(current).find(([k, v]) => typeof v === "number" && !(k in pendingBefore)) ??
        Object.entries(current).find(([k]) => !(k in pendingBefore)) ??
        [];
      expect(key !== undefined && value !== undefined, "no BIOS attribute to stage");
      const next = changedValue(value);
      const job = await driver.setBios({ [key]: next });
      check(`staged ${key}=${String(next)}${job ? ` (job ${job.id})` : ""}`);
      const pending = await driver.pendingBios();
      expect(pending[key] === next, `pending BIOS does not show ${key}=${String(next)}`);
      check("pending BIOS shows it");
      await driver.clearPendingBios();
      const cleared = await driver.pendingBios();
      expect(!(key in cleared), `pending BIOS still shows ${key} after clearing`);
      check("cleared pending BIOS");
    },
    probe: (driver) => driver.pendingBios(),
  },
  machineSetup: {
    async run(context) {
      const { driver, check } = context;
      const mac = await bootInterfaceMac(driver);
      const options = context.machineSetup ?? (mac ? { bootInterfaceMac: mac } : {});
      const result = await driver.machineSetup(options);
      check(`machine setup applied${result.job ? ` (job ${result.job.id})` : ""}`);
      // A BMC job (Dell) runs during the reboot, so reboot first, then wait for it.
      if (result.rebootRequired || result.job) {
        await driver.power("ForceRestart");
        check("rebooted to apply");
      }
      if (result.job) await waitForJob(context, result.job);
      const status = await driver.machineSetupStatus(options);
      expect(
        status.done,
        `machine setup status not done: ${status.diffs.map((d) => `${d.key} expected ${d.expected} got ${d.actual}`).join("; ")}`,
      );
      check("machine setup status reports done");
    },
    probe: (driver) => driver.machineSetupStatus({}),
  },
  lockdown: {
    async run({ driver, check }) {
      await driver.setLockdown(false);
      const off = await driver.lockdownStatus();
      expect(off.state === "disabled", `after disabling, lockdown is ${off.state}: ${off.message}`);
      check("lockdown disabled");
      await driver.setLockdown(true);
      const on = await driver.lockdownStatus();
      expect(on.state === "enabled", `after enabling, lockdown is ${on.state}: ${on.message}`);
      check("lockdown enabled");
      // Leave the BMC unlocked: a locked-down BMC rightly refuses the writes later checks make.
      await driver.setLockdown(false);
      check("unlocked again");
    },
    probe: (driver) => driver.lockdownStatus(),
  },
  serialConsole: {
    async run({ driver, check }) {
      await driver.setupSerialConsole();
      const status = await driver.serialConsoleStatus();
      expect(status.state === "enabled", `serial console is ${status.state} after setup: ${status.message}`);
      check(`serial console enabled (${status.message})`);
    },
    probe: (driver) => driver.serialConsoleStatus(),
  },
  accounts: {
    async run({ driver, check }) {
      const before = await driver.accounts();
      expect(before.length > 0, "no accounts listed");
      check(`${before.length} accounts`);
      await driver.createAccount(ACCOUNT.user, ACCOUNT.password, "ReadOnly");
      expect(
        (await driver.accounts()).some((a) => a.userName === ACCOUNT.user),
        "created account not listed",
      );
      check("created an account");
      await driver.changePassword(ACCOUNT.user, ACCOUNT.next);
      check("changed its password");
      await driver.deleteAccount(ACCOUNT.user);
      expect(
        !(await driver.accounts()).some((a) => a.userName === ACCOUNT.user),
        "deleted account still listed",
      );
      check("deleted it");
    },
    probe: (driver) => driver.accounts(),
  },
  passwordPolicy: {
    async run({ driver, check }) {
      const policy = await driver.passwordPolicy();
      check(`policy read (${JSON.stringify(policy)})`);
      await driver.setPasswordPolicy({
        lockoutThreshold: 0,
        lockoutDurationSeconds: 0,
        lockoutCounterResetAfterSeconds: 0,
      });
      const after = await driver.passwordPolicy();
      expect(
        after.lockoutThreshold === undefined || after.lockoutThreshold === 0,
        "lockout threshold not applied",
      );
      check("lockout disabled");
    },
    probe: (driver) => driver.passwordPolicy(),
  },
  uefiPassword: {
    async run({ driver, check }) {
      await driver.changeUefiPassword("", "Uefi-Conform1");
      check("UEFI password set");
    },
    probe: (driver) => driver.changeUefiPassword("", "x"),
  },
  firmwareInventory: {
    async run({ driver, check }) {
      const inventory = await driver.firmwareInventory();
      expect(inventory.length > 0, "firmware inventory is empty");
      expect(
        inventory.every((item) => item.id),
        "a firmware item has no id",
      );
      expect(
        inventory.some((item) => item.version),
        "no firmware item has a version",
      );
      check(`${inventory.length} firmware components`);
    },
    probe: (driver) => driver.firmwareInventory(),
  },
  firmwareUpdate: {
    async run(context) {
      const job = await context.driver.updateFirmware({
        method: "simpleUpdate",
        imageUri: "http://192.0.2.1/firmware.bin",
        transferProtocol: "HTTP",
      });
      context.check(`SimpleUpdate returned task ${job.id}`);
      await waitForJob(context, job);
    },
    probe: (driver) =>
      driver.updateFirmware({ method: "simpleUpdate", imageUri: "http://192.0.2.1/firmware.bin" }),
  },
  thermal: {
    async run({ driver, check }) {
      const readings = await driver.thermal();
      expect(
        readings.some((r) => typeof r.reading === "number"),
        "no thermal reading has a value",
      );
      check(`${readings.length} thermal readings`);
    },
    probe: (driver) => driver.thermal(),
  },
  powerMetrics: {
    async run({ driver, check }) {
      const metrics = await driver.powerMetrics();
      expect(
        metrics.consumedWatts !== null || metrics.supplies.length > 0,
        "no power consumption and no supplies",
      );
      check(`power consumed ${metrics.consumedWatts ?? "n/a"} W, ${metrics.supplies.length} supplies`);
    },
    probe: (driver) => driver.powerMetrics(),
  },
  sensors: {
    async run({ driver, check }) {
      const sensors = await driver.sensors();
      expect(sensors.length > 0, "no sensors");
      check(`${sensors.length} sensors`);
    },
    probe: (driver) => driver.sensors(),
  },
  systemEventLog: {
    async run({ driver, check }) {
      const entries = await driver.systemEventLog();
      check(`${entries.length} system log entries`);
      const first = entries[0];
      if (first && entries.length > 1) {
        const newer = await driver.systemEventLog({ sinceId: first.id });
        expect(
          !newer.some((e) => e.id === first.id) && newer.length === entries.length - 1,
          "incremental fetch is wrong",
        );
        check("incremental fetch after the first entry");
      }
    },
    probe: (driver) => driver.systemEventLog(),
  },
  bmcEventLog: {
    async run({ driver, check }) {
      const entries = await driver.bmcEventLog();
      check(`${entries.length} BMC log entries`);
      const last = entries.at(-1);
      if (last) {
        expect(
          (await driver.bmcEventLog({ sinceId: last.id })).length === 0,
          "entries after the newest one were returned",
        );
        check("nothing after the newest entry");
      }
    },
    probe: (driver) => driver.bmcEventLog(),
  },
  secureBoot: {
    async run({ driver, check }) {
      const before = await driver.secureBootStatus();
      check(`secure boot ${before.enabled ? "enabled" : "disabled"}`);
      await driver.setSecureBoot(true);
      expect((await driver.secureBootStatus()).enabled === true, "secure boot not enabled after enabling");
      await driver.setSecureBoot(false);
      expect((await driver.secureBootStatus()).enabled === false, "secure boot not disabled after disabling");
      check("enabled then disabled");
    },
    probe: (driver) => driver.secureBootStatus(),
  },
  tpmClear: {
    async run({ driver, check, expectations }) {
      await driver.clearTpm();
      check("TPM clear requested");
      if (expectations.tpmClearLeavesPending !== false) {
        const pending = await driver.pendingBios();
        expect(Object.keys(pending).length > 0, "no pending BIOS change after TPM clear");
        check(`pending: ${Object.keys(pending).join(", ")}`);
      }
    },
    probe: (driver) => driver.clearTpm(),
  },
  inventory: {
    async run({ driver, check, expectations }) {
      const [system, manager, pcie] = await Promise.all([
        driver.systemEthernetInterfaces(),
        driver.managerEthernetInterfaces(),
        driver.pcieDevices(),
      ]);
      const macs = physicalMacs([...system, ...manager]);
      expect(
        manager.some((i) => i.mac),
        "no manager MAC",
      );
      expect(new Set(macs).size === macs.length, `duplicate physical MACs among ${macs.join(", ")}`);
      const virtual = [...system, ...manager].filter((i) => i.interfaceType === "Virtual").length;
      check(
        `${manager.length} manager + ${system.length} system interfaces${virtual ? ` (${virtual} virtual)` : ""}, physical MACs unique`,
      );
      if (expectations.enumeratesPcieDevices === false) {
        expect(pcie.length === 0, `expected no PCIe devices, got ${pcie.length}`);
      } else {
        expect(pcie.length > 0, "no PCIe devices");
      }
      check(`${pcie.length} PCIe devices`);
      const adapters = await driver.networkAdapters();
      check(`${adapters.length} network adapters`);
    },
    probe: (driver) => driver.pcieDevices(),
  },
  drives: {
    async run({ driver, check }) {
      const drives = await driver.drives();
      expect(
        drives.every((d) => !/usb/i.test(d.protocol ?? "")),
        "USB media listed as drives",
      );
      check(`${drives.length} drives (USB excluded)`);
    },
    probe: (driver) => driver.drives(),
  },
  dpu: {
    async run({ driver, check }) {
      const mode = await driver.nicMode();
      check(`mode ${mode}`);
      const mac = await driver.baseMac();
      expect(normalizeMac(mac), `base MAC ${mac} is not a MAC`);
      check(`base MAC ${mac}`);
      await driver.enableRshim();
      check("rshim enabled");
    },
    probe: (driver) => driver.nicMode(),
  },
};

/** Checks every driver must pass regardless of declared capabilities. */
export async function checkDetect(
  context: CheckContext,
  standardScore: number,
  hardware?: HardwareIdentity,
): Promise<void> {
  // The score selection would give it: `refine` on the hardware replaces `detect` when it returns a number.
  const { candidates } = selectDriver([context.definition], context.probe, {
    fallback: redfishStandardDriver,
    ...(hardware ? { hardware } : {}),
  });
  const score = candidates.find((c) => c.name === context.definition.name)?.score ?? 0;
  expect(score > 0, `${context.definition.name} does not recognise its own mockup (score ${score})`);
  if (context.definition.name !== "redfish-standard") {
    expect(score > standardScore, `score ${score} does not beat the standard driver's ${standardScore}`);
  }
  context.check(`detect score ${score}`);
}

export async function checkExplore({ driver, check }: CheckContext): Promise<void> {
  const report = await driver.explore();
  const system = report.systems[0];
  expect(system, "the report has no system");
  expect(system.serialNumber, "the system has no serial number");
  const macs = physicalMacs([
    ...report.managers.flatMap((m) => m.ethernetInterfaces),
    ...report.systems.flatMap((s) => s.ethernetInterfaces),
  ]);
  expect(
    report.managers.some((m) => m.ethernetInterfaces.some((i) => i.mac)),
    "no manager MAC in the report",
  );
  expect(
    new Set(macs).size === macs.length,
    `duplicate physical MACs in the report among ${macs.join(", ")}`,
  );
  expect(report.chassis.length > 0, "no chassis in the report");
  // A DMTF-style root names no Vendor: say who made the system instead, or that nobody says.
  const maker = report.vendor
    ? `vendor ${report.vendor}`
    : system.manufacturer
      ? `manufacturer ${system.manufacturer} (no vendor in the service root)`
      : "vendor not stated";
  check(
    `${maker}, serial ${system.serialNumber}, ${macs.length} physical MACs, ${report.chassis.length} chassis`,
  );
}
