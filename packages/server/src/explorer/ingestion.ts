import type { ExplorationReport } from "@racksmith/core";
import type { ExpectedMachine } from "../inventory/contracts.js";
import { type EndpointFinding, serialNumberMismatch } from "./findings.js";
import type { PairedDpu, PairingResult } from "./pairing.js";
import { endpointKindOf, reportSerials, unreadPaths } from "./reportFacts.js";

/** Where a host BMC stands on its way to becoming a managed host (shown by `managed-hosts`). */
export type IngestionStatus = "ingested" | "waiting" | "rejected" | "unexpected";

/** Every ingestion status, in the order a host usually moves through them. */
export const INGESTION_STATUSES: readonly IngestionStatus[] = [
  "unexpected",
  "waiting",
  "rejected",
  "ingested",
];

export interface IngestionInput {
  report: ExplorationReport;
  expected: Pick<ExpectedMachine, "chassisSerial"> | undefined;
  /** The host already is a managed host. */
  ingested: boolean;
  pairing: PairingResult;
  /** Serials of DPUs already attached to a managed host. */
  attachedDpuSerials: ReadonlySet<string>;
  /** When the explorer last powered this host on (rate limit). */
  lastPowerOnAt: Date | undefined;
  powerOn: { enabled: boolean; retryAfterMs: number };
  now: Date;
}

export type IngestionDecision =
  | { action: "none"; status: "ingested" | "unexpected"; reason: string | null }
  | { action: "reject"; status: "rejected"; code: string; reason: string; finding?: EndpointFinding }
  | { action: "power-on" | "wait"; status: "waiting"; code: string; reason: string }
  | { action: "ingest"; serial: string; dpus: PairedDpu[] };

/**
 * Whether a host BMC becomes a managed host now (NICo's ingestion criteria): it must be a host's BMC (a switch
 * tray's or a power shelf's is rejected with `not_a_host`, whatever expected machines say), be listed in expected
 * machines, show the expected serial (else a `SerialNumberMismatch` finding), be powered on (powered on for
 * it once per `retryAfterMs`), and be completely paired with DPUs nobody else owns.
 */
export function decideIngestion(input: IngestionInput): IngestionDecision {
  const decision = decideOnReport(input);
  if (decision.action !== "reject" || decision.code === "dpu_attached_elsewhere") return decision;
  // A switch or a power shelf shows what it is; only "no host seen" may be a host whose Systems did not answer.
  if (decision.code === "not_a_host" && endpointKindOf(input.report) !== "unknown") return decision;
  // A rejection drawn from a report with holes may be a network blip, not the machine: wait for a whole one.
  const unread = unreadPaths(input.report);
  if (unread.length === 0) return decision;
  const shown = unread.slice(0, 3).join(", ") + (unread.length > 3 ? `, and ${unread.length - 3} more` : "");
  return {
    action: "wait",
    status: "waiting",
    code: "report_incomplete",
    reason: `not rejected yet (${decision.code}: ${decision.reason}): the BMC did not answer for ${shown}`,
  };
}

const NOT_A_HOST: Record<Exclude<ExplorationReport["endpointKind"], "host">, string> = {
  switch: "an NVLink switch tray",
  powerShelf: "a power shelf",
  unknown: "the BMC shows no host computer system",
};

function decideOnReport(input: IngestionInput): IngestionDecision {
  if (input.ingested) return { action: "none", status: "ingested", reason: null };
  const kind = endpointKindOf(input.report);
  if (kind !== "host") {
    return {
      action: "reject",
      status: "rejected",
      code: "not_a_host",
      reason: `not a host: ${NOT_A_HOST[kind]} (${input.report.endpointKindReason}); only hosts are ingested`,
    };
  }
  if (!input.expected) {
    return { action: "none", status: "unexpected", reason: "the BMC MAC is not listed in expected machines" };
  }
  const expectedSerial = input.expected.chassisSerial.trim();
  const found = reportSerials(input.report);
  if (!found.includes(expectedSerial)) {
    const finding = serialNumberMismatch(expectedSerial, [...new Set(found)]);
    return {
      action: "reject",
      status: "rejected",
      code: "serial_number_mismatch",
      reason: finding.message,
      finding,
    };
  }
  const power = input.report.systems[0]?.powerState ?? "Unknown";
  if (power !== "On") {
    const since = input.lastPowerOnAt?.getTime();
    const canPowerOn =
      input.powerOn.enabled &&
      power === "Off" &&
      (since === undefined || input.now.getTime() - since >= input.powerOn.retryAfterMs);
    if (canPowerOn) {
      return {
        action: "power-on",
        status: "waiting",
        code: "powering_on",
        reason: "host was off: powering it on",
      };
    }
    return {
      action: "wait",
      status: "waiting",
      code: "host_not_powered_on",
      reason: `host power is ${power}${
        power === "Off"
          ? input.powerOn.enabled
            ? " (powered on recently; waiting for it)"
            : " and siteExplorer.powerOn.enabled is false"
          : ""
      }`,
    };
  }
  const { pairing } = input;
  if (pairing.status === "waiting") {
    return { action: "wait", status: "waiting", code: pairing.code, reason: pairing.reason };
  }
  if (pairing.status === "rejected") {
    return { action: "reject", status: "rejected", code: pairing.code, reason: pairing.reason };
  }
  const taken = pairing.dpus.filter((dpu) => input.attachedDpuSerials.has(dpu.serial));
  if (taken.length > 0) {
    return {
      action: "reject",
      status: "rejected",
      code: "dpu_attached_elsewhere",
      reason: `DPU ${taken.map((dpu) => dpu.serial).join(", ")} already belongs to another managed host`,
    };
  }
  return { action: "ingest", serial: expectedSerial, dpus: pairing.dpus };
}
