import {
  type BiosAttributes,
  type BmcDriver,
  type BootTarget,
  type ExplorationReport,
  type MachineSetupOptions,
  type NicMode,
  normalizeMac,
  POWER_ACTIONS,
  type PowerAction,
  type SensorReading,
} from "@racksmith/core";
import type { Diagnostic } from "@racksmith/core/redfish";
import { UsageError } from "../../errors.js";
import type { CliIo } from "../../io.js";
import type { CommandOutput } from "../../output/print.js";
import { renderRecord, renderTable } from "../../output/table.js";
import { type BmcConnection, readSecretFile } from "./connect.js";

/** What an operation parses before anything connects, so a bad argument never costs a BMC round trip. */
export interface OperationInput {
  io: CliIo;
  args: string[];
  options: Record<string, string | boolean | undefined>;
}

export interface OperationContext extends OperationInput {
  connection: BmcConnection;
  driver: BmcDriver;
}

export interface RedfishOperation<I = unknown> {
  name: string;
  summary: string;
  /** Commander argument syntax, e.g. `<action>`. */
  args?: string[];
  /** [flags, description] pairs, e.g. ["--mac <mac>", "..."]. */
  options?: Array<[string, string]>;
  /** Validates arguments and options; throws UsageError (exit 2). */
  parse?(input: OperationInput): I;
  run(context: OperationContext, input: I): Promise<CommandOutput>;
}

/** Keeps each entry's input type checked while the table holds them all. */
function operation<I = undefined>(definition: RedfishOperation<I>): RedfishOperation {
  return definition as RedfishOperation;
}

const done = (text: string): CommandOutput => ({ kind: "message", text, json: { ok: true, message: text } });

const BOOT_TARGET_ARG: Readonly<Record<string, BootTarget>> = {
  pxe: "pxe",
  hdd: "hdd",
  "uefi-http": "uefiHttp",
};

function bootTarget(raw: string | undefined): BootTarget {
  const target = raw ? BOOT_TARGET_ARG[raw] : undefined;
  if (!target)
    throw new UsageError(
      `boot target must be one of ${Object.keys(BOOT_TARGET_ARG).join(", ")}, got ${JSON.stringify(raw)}`,
    );
  return target;
}

function requireMacOption(value: unknown, flag: string): string {
  const mac = normalizeMac(value);
  if (!mac)
    throw new UsageError(
      `${flag} must be a MAC address like B8:3F:D2:90:95:82, got ${JSON.stringify(value)}`,
    );
  return mac;
}

function parseAttributes(raw: unknown, flag: string): BiosAttributes {
  if (typeof raw !== "string") throw new UsageError(`${flag} is required`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new UsageError(`${flag} must be a JSON object`);
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && !["string", "number", "boolean"].includes(typeof item)) {
      throw new UsageError(`${flag}: ${key} must be a string, number, boolean or null`);
    }
  }
  return value as BiosAttributes;
}

function machineSetupOptions(options: OperationContext["options"]): MachineSetupOptions {
  return {
    ...(options.bootMac !== undefined
      ? { bootInterfaceMac: requireMacOption(options.bootMac, "--boot-mac") }
      : {}),
    ...(options.attributes !== undefined
      ? { biosProfile: parseAttributes(options.attributes, "--attributes") }
      : {}),
  };
}

function attributeRows(attributes: BiosAttributes): Array<{ name: string; value: unknown }> {
  return Object.entries(attributes).map(([name, value]) => ({ name, value }));
}

function sensorRows(readings: SensorReading[]): Record<string, unknown>[] {
  return readings.map(({ thresholds, ...rest }) => ({ ...rest, ...thresholds }));
}

function exploreSummary(report: ExplorationReport): string {
  const lines = [
    renderRecord({
      endpointKind: report.endpointKind,
      vendor: report.vendor,
      product: report.product,
      redfishVersion: report.redfishVersion,
      driver: `${report.driver.name}${report.driver.pinned ? " (pinned)" : ""}`,
      candidates: report.candidates.map((c) => `${c.name}=${c.score}`),
      firmwareComponents: report.firmware.length,
      oemNamespaces: report.oemNamespaces.length,
      diagnostics: report.diagnostics.length,
      durationMs: report.durationMs,
    }),
    "SYSTEMS",
    renderTable(
      report.systems.map((s) => ({
        id: s.id,
        manufacturer: s.manufacturer,
        model: s.model,
        serialNumber: s.serialNumber,
        powerState: s.powerState,
        nics: s.ethernetInterfaces.length,
        pcieDevices: s.pcieDevices.length,
      })),
    ),
    "MANAGERS",
    renderTable(
      report.managers.map((m) => ({
        id: m.id,
        firmwareVersion: m.firmwareVersion,
        macs: m.ethernetInterfaces.map((i) => i.mac),
      })),
    ),
    "CHASSIS",
    renderTable(
      report.chassis.map((c) => ({
        id: c.id,
        model: c.model,
        partNumber: c.partNumber,
        serialNumber: c.serialNumber,
        networkAdapters: c.networkAdapters.length,
      })),
    ),
  ];
  if (report.diagnostics.length > 0) lines.push("DIAGNOSTICS", diagnosticsTable(report.diagnostics));
  return lines.join("\n");
}

/** Each problem the BMC's answers had, worst first, naming the resource and field it is in. */
export function diagnosticsTable(diagnostics: readonly Diagnostic[]): string {
  const rank: Record<Diagnostic["severity"], number> = { error: 0, warning: 1, info: 2 };
  const rows = [...diagnostics]
    .sort((a, b) => rank[a.severity] - rank[b.severity])
    .map((d) => ({
      severity: d.severity,
      path: d.path,
      field: d.field ?? "",
      message: d.unread ? `${d.message} (not read: missing from the report)` : d.message,
    }));
  return renderTable(rows, ["severity", "path", "field", "message"]);
}

/** Every `racksmith redfish <op>`: one entry each, so adding an operation is one entry. */
export const REDFISH_OPERATIONS: readonly RedfishOperation[] = [
  operation({
    name: "detect",
    summary: "show which driver would manage this BMC and every candidate's score",
    async run({ connection }) {
      const value = { driver: connection.selection.driver.name, candidates: connection.selection.candidates };
      return { kind: "record", value, human: `driver: ${value.driver}\n${renderTable(value.candidates)}` };
    },
  }),
  operation({
    name: "explore",
    summary: "produce the exploration report the site explorer would store",
    async run({ connection, driver }) {
      const report = await driver.explore();
      const value = {
        ...report,
        driver: { name: driver.name, pinned: connection.selection.pinned },
        candidates: connection.selection.candidates,
      };
      return { kind: "record", value, human: exploreSummary(value) };
    },
  }),
  operation({
    name: "power-state",
    summary: "read the system power state",
    run: async ({ driver }) => ({ kind: "record", value: { powerState: await driver.powerState() } }),
  }),
  operation({
    name: "power",
    summary: `power action: ${POWER_ACTIONS.join("|")}`,
    args: ["<action>"],
    parse({ args }): PowerAction {
      const action = POWER_ACTIONS.find((candidate) => candidate === args[0]);
      if (!action) {
        throw new UsageError(
          `power action must be one of ${POWER_ACTIONS.join(", ")}, got ${JSON.stringify(args[0])}`,
        );
      }
      return action;
    },
    async run({ driver }, action) {
      await driver.power(action);
      return done(`power ${action} sent`);
    },
  }),
  operation({
    name: "bios",
    summary: "read BIOS attributes",
    async run({ driver }) {
      const attributes = await driver.bios();
      return { kind: "record", value: attributes, human: renderTable(attributeRows(attributes)) };
    },
  }),
  operation({
    name: "pending-bios",
    summary: "read staged BIOS changes that differ from the current values",
    async run({ driver }) {
      const pending = await driver.pendingBios();
      return { kind: "record", value: pending, human: renderTable(attributeRows(pending)) };
    },
  }),
  operation({
    name: "set-bios",
    summary: "stage BIOS attributes for the next reset",
    options: [["--attributes <json>", 'attributes as a JSON object, e.g. {"SriovGlobalEnable":"Enabled"}']],
    parse: ({ options }) => parseAttributes(options.attributes, "--attributes"),
    async run({ driver }, attributes) {
      const job = await driver.setBios(attributes);
      return done(job ? `BIOS change staged as job ${job.id}` : "BIOS change staged for the next reset");
    },
  }),
  operation({
    name: "machine-setup",
    summary: "apply the host setup (BIOS, serial, boot order) the lifecycle needs",
    options: [
      ["--boot-mac <mac>", "MAC of the interface to boot from (the primary DPU's host port)"],
      ["--attributes <json>", "extra BIOS attributes (an operator profile)"],
    ],
    parse: ({ options }) => machineSetupOptions(options),
    async run({ driver }, setup) {
      const result = await driver.machineSetup(setup);
      const job = result.job ? ` as job ${result.job.id}` : "";
      return {
        kind: "message",
        text: `machine setup applied${job}${result.rebootRequired ? "; reboot to apply" : ""}`,
        json: result,
      };
    },
  }),
  operation({
    name: "machine-setup-status",
    summary: "list the settings machine-setup applies that differ on the BMC",
    options: [
      ["--boot-mac <mac>", "MAC the boot order should start with"],
      ["--attributes <json>", "extra BIOS attributes to compare"],
    ],
    parse: ({ options }) => machineSetupOptions(options),
    async run({ driver }, setup) {
      const status = await driver.machineSetupStatus(setup);
      return {
        kind: "record",
        value: status,
        human: `done: ${status.done}\n${status.diffs.length ? renderTable(status.diffs) : ""}`,
      };
    },
  }),
  operation({
    name: "lockdown",
    summary: "enable or disable BMC lockdown",
    args: ["<enable|disable>"],
    parse({ args }): boolean {
      if (args[0] !== "enable" && args[0] !== "disable") {
        throw new UsageError(`lockdown takes enable or disable, got ${JSON.stringify(args[0])}`);
      }
      return args[0] === "enable";
    },
    async run({ driver }, enable) {
      await driver.setLockdown(enable);
      return done(`lockdown ${enable ? "enabled" : "disabled"}`);
    },
  }),
  operation({
    name: "lockdown-status",
    summary: "read lockdown status (enabled / partial / disabled)",
    run: async ({ driver }) => ({ kind: "record", value: await driver.lockdownStatus() }),
  }),
  operation({
    name: "serial-console-setup",
    summary: "enable the serial console",
    async run({ driver }) {
      await driver.setupSerialConsole();
      return done("serial console set up");
    },
  }),
  operation({
    name: "serial-console-status",
    summary: "read serial console status (enabled / partial / disabled)",
    run: async ({ driver }) => ({ kind: "record", value: await driver.serialConsoleStatus() }),
  }),
  operation({
    name: "boot-once",
    summary: "boot pxe|hdd|uefi-http on the next boot only",
    args: ["<target>"],
    parse: ({ args }) => bootTarget(args[0]),
    async run({ driver, args }, target) {
      await driver.bootOnce(target);
      return done(`next boot: ${args[0]}`);
    },
  }),
  operation({
    name: "boot-first",
    summary: "make pxe|hdd|uefi-http the first persistent boot entry",
    args: ["<target>"],
    parse: ({ args }) => bootTarget(args[0]),
    async run({ driver, args }, target) {
      await driver.bootFirst(target);
      return done(`boot order now starts with ${args[0]}`);
    },
  }),
  operation({
    name: "set-boot-order-dpu-first",
    summary: "put the network boot option of a MAC first",
    options: [["--mac <mac>", "MAC of the DPU's host-facing port"]],
    parse: ({ options }) => requireMacOption(options.mac, "--mac"),
    async run({ driver }, mac) {
      const job = await driver.setBootOrderDpuFirst(mac);
      return done(job ? `boot order change queued as job ${job.id}` : "boot order set");
    },
  }),
  operation({
    name: "boot-options",
    summary: "list boot options in boot order",
    async run({ driver }) {
      const { order, options } = await driver.bootOptions();
      const rank = (reference: string): number => {
        const index = order.indexOf(reference);
        return index < 0 ? order.length : index;
      };
      return { kind: "list", rows: [...options].sort((a, b) => rank(a.reference) - rank(b.reference)) };
    },
  }),
  operation({
    name: "firmware",
    summary: "list the firmware inventory",
    run: async ({ driver }) => ({ kind: "list", rows: await driver.firmwareInventory() }),
  }),
  operation({
    name: "thermal",
    summary: "list temperatures and fans",
    run: async ({ driver }) => ({ kind: "list", rows: sensorRows(await driver.thermal()) }),
  }),
  operation({
    name: "power-metrics",
    summary: "read power consumption and supplies",
    async run({ driver }) {
      const metrics = await driver.powerMetrics();
      return {
        kind: "record",
        value: metrics,
        human: `consumed watts: ${metrics.consumedWatts ?? "-"}\n${renderTable(metrics.supplies)}`,
      };
    },
  }),
  operation({
    name: "sensors",
    summary: "list every sensor reading",
    run: async ({ driver }) => ({ kind: "list", rows: sensorRows(await driver.sensors()) }),
  }),
  operation({
    name: "event-log",
    summary: "list event log entries (system log; --bmc for the BMC's own)",
    options: [
      ["--since <id>", "only entries after this entry id"],
      ["--bmc", "read the BMC event log instead of the system event log"],
    ],
    async run({ driver, options }) {
      const query = typeof options.since === "string" ? { sinceId: options.since } : {};
      const entries = options.bmc ? await driver.bmcEventLog(query) : await driver.systemEventLog(query);
      return { kind: "list", rows: entries };
    },
  }),
  operation({
    name: "accounts",
    summary: "list BMC accounts",
    run: async ({ driver }) => ({ kind: "list", rows: await driver.accounts() }),
  }),
  operation({
    name: "change-password",
    summary: "change a BMC account's password (read from a file)",
    options: [
      ["--user <name>", "account user name"],
      ["--new-password-file <file>", "file holding the new password"],
    ],
    parse({ io, options }): { user: string; password: string } {
      if (typeof options.user !== "string") throw new UsageError("--user is required");
      if (typeof options.newPasswordFile !== "string")
        throw new UsageError("--new-password-file is required");
      const password = readSecretFile(io, options.newPasswordFile, "--new-password-file");
      if (!password) throw new UsageError("--new-password-file is empty");
      return { user: options.user, password };
    },
    async run({ driver }, { user, password }) {
      await driver.changePassword(user, password);
      return done(`password of ${user} changed`);
    },
  }),
  operation({
    name: "tpm-clear",
    summary: "request a TPM clear on the next boot",
    async run({ driver }) {
      await driver.clearTpm();
      return done("TPM clear requested");
    },
  }),
  operation({
    name: "secure-boot",
    summary: "read secure boot status (--enable / --disable to change it)",
    options: [
      ["--enable", "enable secure boot"],
      ["--disable", "disable secure boot"],
    ],
    parse({ options }): boolean | undefined {
      if (options.enable && options.disable) throw new UsageError("give --enable or --disable, not both");
      return options.enable ? true : options.disable ? false : undefined;
    },
    async run({ driver }, enable) {
      if (enable !== undefined) await driver.setSecureBoot(enable);
      return { kind: "record", value: await driver.secureBootStatus() };
    },
  }),
  operation({
    name: "pcie-devices",
    summary: "list PCIe devices",
    run: async ({ driver }) => ({ kind: "list", rows: await driver.pcieDevices() }),
  }),
  operation({
    name: "drives",
    summary: "list drives of every storage controller (USB media excluded)",
    run: async ({ driver }) => ({ kind: "list", rows: await driver.drives() }),
  }),
  operation({
    name: "nic-mode",
    summary: "read a BlueField DPU's mode (dpu or nic)",
    run: async ({ driver }) => ({ kind: "record", value: { nicMode: await driver.nicMode() } }),
  }),
  operation({
    name: "set-nic-mode",
    summary: "switch a BlueField DPU between dpu and nic mode (applies at its next reboot)",
    args: ["<dpu|nic>"],
    parse({ args }): NicMode {
      if (args[0] !== "dpu" && args[0] !== "nic")
        throw new UsageError(`set-nic-mode takes dpu or nic, got ${JSON.stringify(args[0])}`);
      return args[0];
    },
    async run({ driver }, mode) {
      await driver.setNicMode(mode);
      return done(`NIC mode ${mode} requested`);
    },
  }),
  operation({
    name: "enable-rshim",
    summary: "enable a BlueField DPU's rshim on its BMC",
    async run({ driver }) {
      await driver.enableRshim();
      return done("rshim enabled");
    },
  }),
  operation({
    name: "base-mac",
    summary: "read a BlueField DPU's host-facing base MAC",
    run: async ({ driver }) => ({ kind: "record", value: { baseMac: await driver.baseMac() } }),
  }),
  operation({
    name: "browse",
    summary: "print any Redfish resource as JSON",
    args: ["<path>"],
    async run({ connection, args }) {
      const body = await connection.client.get(args[0] ?? "/redfish/v1");
      return { kind: "record", value: body, human: `${JSON.stringify(body, null, 2)}\n` };
    },
  }),
];
