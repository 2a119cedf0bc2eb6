import {
  formatPkey,
  INFINIBAND_MAX_SERVICE_LEVEL,
  INFINIBAND_MTUS,
  INFINIBAND_RATE_LIMITS,
  type Pkey,
  parsePkey,
} from "@racksmith/core/infiniband";
import type { UfmPartition } from "../client/index.js";
import { SimulatorRequestError, type UfmSimulatorState } from "./state.js";

export interface SimulatorRequest {
  method: string;
  /** Below the base path (`/resources/pkeys`). */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface SimulatorResponse {
  status: number;
  body?: unknown;
}

/** Answers one UFM REST call against the state, the way UFM does (including its 200 `{}` for "missing"). */
export function route(
  state: UfmSimulatorState,
  version: string,
  request: SimulatorRequest,
): SimulatorResponse {
  const { method, path, query } = request;
  const flag = (name: string): boolean => query.get(name) === "true";
  if (method === "GET" && path === "/app/ufm_version") return ok({ ufm_release_version: version });
  if (method === "GET" && path === "/app/smconf") return ok(state.smConfig());
  if (method === "GET" && path === "/resources/ports") return ok(state.portEntries());
  if (method === "GET" && path === "/resources/pkeys") {
    // Stands in for UFM bug 5409095, so a client that sends the combined listing is caught in tests.
    if (flag("guids_data") && flag("qos_conf"))
      throw new SimulatorRequestError(500, "listing with guids_data and qos_conf together is broken");
    const listing: Record<string, UfmPartition> = {};
    for (const partition of [...state.partitions.values()].sort((a, b) => a.pkey - b.pkey))
      listing[formatPkey(partition.pkey)] = state.partitionEntry(
        partition,
        flag("guids_data"),
        flag("qos_conf") || !flag("guids_data"),
      );
    return ok(listing);
  }
  if (method === "GET" && path.startsWith("/resources/pkeys/")) {
    const pkey = pkeyOf(decodeURIComponent(path.slice("/resources/pkeys/".length)));
    const partition = state.partitions.get(pkey);
    // UFM's quirk: a missing partition is 200 with an empty object.
    if (!partition) return ok({});
    return ok(state.partitionEntry(partition, flag("guids_data"), flag("qos_conf")));
  }
  if (method === "POST" && path === "/resources/pkeys") {
    const body = object(request.body);
    const membership = body.membership ?? "full";
    if (membership !== "full" && membership !== "limited")
      throw new SimulatorRequestError(400, "membership must be full or limited");
    state.bind(
      pkeyOf(body.pkey),
      guidList(body.guids),
      { membership, index0: body.index0 === true },
      body.ip_over_ib !== false,
    );
    return ok();
  }
  if (method === "POST" && path === "/actions/remove_guids_from_pkey") {
    const body = object(request.body);
    state.unbind(pkeyOf(body.pkey), guidList(body.guids));
    return ok();
  }
  if (method === "PUT" && path === "/resources/pkeys/qos_conf") {
    const body = object(request.body);
    const pkey = pkeyOf(body.pkey);
    const { mtu_limit, service_level, rate_limit } = body;
    if (!(INFINIBAND_MTUS as readonly unknown[]).includes(mtu_limit))
      throw new SimulatorRequestError(400, `mtu_limit must be one of ${INFINIBAND_MTUS.join(", ")}`);
    if (!(INFINIBAND_RATE_LIMITS as readonly unknown[]).includes(rate_limit))
      throw new SimulatorRequestError(400, "rate_limit is not a supported rate");
    if (
      typeof service_level !== "number" ||
      !Number.isInteger(service_level) ||
      service_level < 0 ||
      service_level > INFINIBAND_MAX_SERVICE_LEVEL
    )
      throw new SimulatorRequestError(400, "service_level must be 0..15");
    state.updateQos(pkey, {
      mtu_limit: mtu_limit as number,
      service_level,
      rate_limit: rate_limit as number,
    });
    return ok();
  }
  return { status: 404, body: { error: `no such resource: ${method} ${path}` } };
}

function ok(body: unknown = undefined): SimulatorResponse {
  return body === undefined ? { status: 200 } : { status: 200, body };
}

interface WriteBody {
  pkey?: unknown;
  guids?: unknown;
  membership?: unknown;
  index0?: unknown;
  ip_over_ib?: unknown;
  mtu_limit?: unknown;
  service_level?: unknown;
  rate_limit?: unknown;
}

function object(body: unknown): WriteBody {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new SimulatorRequestError(400, "the body must be a JSON object");
  return body as WriteBody;
}

function pkeyOf(value: unknown): Pkey {
  if (typeof value !== "string" && typeof value !== "number")
    throw new SimulatorRequestError(400, "pkey is required");
  try {
    return parsePkey(value);
  } catch {
    throw new SimulatorRequestError(400, `pkey ${JSON.stringify(value)} is not valid`);
  }
}

function guidList(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((guid) => typeof guid === "string"))
    throw new SimulatorRequestError(400, "guids must be a non-empty list of GUIDs");
  const invalid = value.filter((guid) => !/^(0x)?[0-9a-f]{16}$/i.test(guid));
  if (invalid.length) throw new SimulatorRequestError(400, `invalid GUIDs: ${invalid.join(", ")}`);
  return value;
}
