import { normalizeMac } from "@racksmith/core";
import { excerpt } from "../../api/index.js";
import {
  type DpuMode,
  EXPECTED_MACHINE_FIELDS,
  type ExpectedMachine,
  type ExpectedMachineInput,
} from "../contracts.js";
import type { FieldProblem } from "../errors.js";
import { parseBmcAddress } from "./bmcAddress.js";

/** An expected machine that passed validation, normalised, with its factory password (never stored in a row). */
export interface ValidExpectedMachine
  extends Omit<ExpectedMachine, "hasFactoryPassword" | "createdAt" | "updatedAt"> {
  /** The static address's IPv4 host as a number, so the DHCP pool never hands it out. */
  bmcAddressIpv4: number | null;
  factoryPassword: string | undefined;
}

export type ExpectedMachineValidation =
  | { ok: true; machine: ValidExpectedMachine }
  /** `bmcMac` is the normalised MAC when it was readable, so results can name the row. */
  | { ok: false; bmcMac: string | undefined; problems: FieldProblem[] };

export const DPU_MODES: readonly DpuMode[] = ["dpu", "nic", "no-dpu"];
const FIELDS = new Set<string>(EXPECTED_MACHINE_FIELDS);
const MAX_TEXT = 256;
const CONTROL_CHARACTERS = /\p{Cc}/u;
const DRIVER_NAME = /^[A-Za-z0-9@][A-Za-z0-9@._/-]*$/;
const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** A trimmed, printable, bounded string; the reason when it is not one. */
function text(value: unknown): string | { problem: string } {
  if (typeof value !== "string") return { problem: `must be a string, got ${quote(value)}` };
  const trimmed = value.trim();
  if (!trimmed) return { problem: "must not be empty or blank" };
  if (CONTROL_CHARACTERS.test(trimmed)) return { problem: "must not contain control characters" };
  if (trimmed.length > MAX_TEXT) return { problem: `must be at most ${MAX_TEXT} characters` };
  return trimmed;
}

/** Checks one import row (any JSON value) field by field; every problem is reported, each naming its field. */
export function validateExpectedMachine(raw: unknown): ExpectedMachineValidation {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, bmcMac: undefined, problems: [{ field: "machine", message: "must be an object" }] };
  }
  const row = raw as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string): null => {
    problems.push({ field, message });
    return null;
  };
  const given = (field: keyof ExpectedMachineInput): boolean =>
    row[field] !== undefined && row[field] !== null;
  const checkedText = (field: string, value: unknown): string | null => {
    const checked = text(value);
    return typeof checked === "string" ? checked : problem(field, checked.problem);
  };
  const optionalText = (field: keyof ExpectedMachineInput, pattern?: RegExp): string | null => {
    if (!given(field)) return null;
    const value = checkedText(field, row[field]);
    if (value !== null && pattern && !pattern.test(value)) {
      return problem(field, `${quote(value)} has characters not allowed here`);
    }
    return value;
  };

  for (const key of Object.keys(row)) if (!FIELDS.has(key)) problem(key, "unknown field");

  const bmcMac = given("bmcMac") ? normalizeMac(row.bmcMac) : undefined;
  if (!given("bmcMac")) problem("bmcMac", "is required");
  else if (!bmcMac) problem("bmcMac", `${quote(row.bmcMac)} is not a MAC address`);

  let bmcAddress: string | null = null;
  let bmcAddressIpv4: number | null = null;
  if (given("bmcAddress")) {
    const parsed = typeof row.bmcAddress === "string" ? parseBmcAddress(row.bmcAddress) : "must be a string";
    if (typeof parsed === "string") problem("bmcAddress", parsed);
    else {
      bmcAddress = parsed.address;
      bmcAddressIpv4 = parsed.ipv4 ?? null;
    }
  }

  const factoryUsername = optionalText("factoryUsername");
  let factoryPassword: string | undefined;
  if (given("factoryPassword")) {
    // The value itself never appears in a message: it is a secret.
    if (typeof row.factoryPassword !== "string" || row.factoryPassword === "") {
      problem("factoryPassword", "must be a non-empty string");
    } else if (!given("factoryUsername")) problem("factoryPassword", "needs factoryUsername");
    else factoryPassword = row.factoryPassword;
  }

  const chassisSerial = given("chassisSerial")
    ? checkedText("chassisSerial", row.chassisSerial)
    : problem("chassisSerial", "is required");

  const fallbackDpuSerials: string[] = [];
  if (given("fallbackDpuSerials")) {
    if (!Array.isArray(row.fallbackDpuSerials)) problem("fallbackDpuSerials", "must be a list of serials");
    else
      row.fallbackDpuSerials.forEach((value: unknown, i) => {
        const checked = checkedText(`fallbackDpuSerials[${i}]`, value);
        if (checked === null) return;
        if (fallbackDpuSerials.includes(checked))
          problem(`fallbackDpuSerials[${i}]`, `${quote(checked)} is listed twice`);
        else fallbackDpuSerials.push(checked);
      });
  }

  let dpuMode: DpuMode = "dpu";
  if (given("dpuMode")) {
    if (DPU_MODES.includes(row.dpuMode as DpuMode)) dpuMode = row.dpuMode as DpuMode;
    else problem("dpuMode", `must be ${DPU_MODES.join(", ")}; got ${quote(row.dpuMode)}`);
  }

  const driver = optionalText("driver", DRIVER_NAME);
  const labels: Record<string, string> = {};
  if (given("labels")) {
    if (typeof row.labels !== "object" || Array.isArray(row.labels))
      problem("labels", "must be an object of strings");
    else
      for (const [key, value] of Object.entries(row.labels as Record<string, unknown>)) {
        if (!LABEL_KEY.test(key) || key.length > 63)
          problem(`labels.${excerpt(key, 64)}`, "key must be letters, digits, . _ / - (at most 63)");
        else if (typeof value !== "string" || CONTROL_CHARACTERS.test(value) || value.length > MAX_TEXT)
          problem(`labels.${key}`, `value must be a printable string of at most ${MAX_TEXT} characters`);
        else labels[key] = value;
      }
  }
  const skuId = optionalText("skuId");

  if (problems.length > 0 || !bmcMac || chassisSerial === null) return { ok: false, bmcMac, problems };
  return {
    ok: true,
    machine: {
      bmcMac,
      bmcAddress,
      bmcAddressIpv4,
      factoryUsername,
      factoryPassword,
      chassisSerial,
      fallbackDpuSerials,
      dpuMode,
      driver,
      labels,
      skuId,
    },
  };
}
