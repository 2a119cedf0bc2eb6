import type { ExplorationReport } from "@racksmith/core";
import type { ObjectStateDto } from "../api/index.js";
import type { ExplorationFailureCode } from "./explorationFailure.js";
import type { EndpointFinding } from "./findings.js";
import type { IngestionStatus } from "./ingestion.js";
import type { MachineKind } from "./machineIds.js";

/** An endpoint's last error as the API shows it (`redfish_error` adds the BMC's status and body excerpt). */
export interface EndpointErrorView {
  code: ExplorationFailureCode;
  message: string;
  httpStatus?: number;
  bodyExcerpt?: string;
}

/** One explored BMC in lists (`racksmith site-explorer endpoints`). */
export interface EndpointSummary {
  address: string;
  bmcMac: string | null;
  vendor: string | null;
  driver: string | null;
  lastError: EndpointErrorView | null;
  /** How many reports have been stored for it (0: never explored successfully). */
  reportVersion: number;
  lastExploredAt: string | null;
  latencyMs: number | null;
  explorationRequested: boolean;
  findings: EndpointFinding[];
}

/** One endpoint with its full exploration report (no credential is ever part of it). */
export interface EndpointDetail extends EndpointSummary {
  report: ExplorationReport | null;
}

/** The answer of a one-off exploration (`explore now`): not stored. */
export interface ExploreNowResult {
  address: string;
  report: ExplorationReport | null;
  error: EndpointErrorView | null;
  latencyMs: number;
}

export interface ManagedHostDpu {
  address: string;
  bmcMac: string;
  serial: string;
  hostFacingMac: string;
  primary: boolean;
  machineId: string;
}

/** A host BMC's pairing and ingestion verdict (`racksmith site-explorer managed-hosts`). */
export interface ManagedHostView {
  hostAddress: string;
  status: IngestionStatus;
  /** Why it waits or was rejected (`dpu_not_explored`, `serial_number_mismatch`, …). */
  code: string | null;
  reason: string | null;
  machineId: string | null;
  serial: string | null;
  dpus: ManagedHostDpu[];
  primaryDpu: string | null;
  updatedAt: string;
}

/** A managed host or DPU (`racksmith machine list`); DPUs carry `host`, hosts `dpus` and `primaryDpu`. */
export interface MachineView {
  id: string;
  kind: MachineKind;
  /** The lifecycle state tag of the managed host (a DPU shows its host's). */
  state: string | null;
  bmcAddress: string;
  bmcMac: string;
  serial: string;
  dpus?: string[];
  primaryDpu?: string | null;
  host?: string;
}

/**
 * The managed host's lifecycle as the machine detail shows it (derived from the engine's stored state): its
 * label, time in state, SLA and the engine's last stored outcome as every API shows an object's state.
 */
export interface MachineLifecycleView
  extends Pick<ObjectStateDto, "stateLabel" | "enteredAt" | "timeInStateMs" | "sla" | "outcome"> {
  state: { state: string; [key: string]: unknown };
  /** The failure's details when the host is in `failed`. */
  failure: Record<string, unknown> | null;
}

/** One state of the managed host's lifecycle: when it entered, its SLA, and the outcome that ended it. */
export interface MachineHistoryView {
  state: string;
  label: string;
  version: number;
  enteredAt: string;
  slaMs: number | null;
  /** The last outcome recorded in the state when it was left (the wait it ended, an error); null while in it. */
  exitOutcome: ObjectStateDto["outcome"];
}

export interface MachineDetail extends MachineView {
  vendor: string | null;
  model: string | null;
  /** DPU: its pf0 MAC as the host sees it. */
  hostFacingMac: string | null;
  createdAt: string;
  /** The managed host's lifecycle history, newest first; `label` as metrics and lists show the state. */
  history: MachineHistoryView[];
  /** Null while the host has no lifecycle object. */
  lifecycle: MachineLifecycleView | null;
}
