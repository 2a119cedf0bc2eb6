import type { Logger } from "@racksmith/core";
import { historyExtras, timestamp } from "../../api/grpc/convert.js";
import type { ExplorationError as ExplorationErrorMessage } from "../../api/grpc/generated/racksmith/v1/ExplorationError.js";
import type { ExploredEndpoint } from "../../api/grpc/generated/racksmith/v1/ExploredEndpoint.js";
import type { Machine } from "../../api/grpc/generated/racksmith/v1/Machine.js";
import type { MachinesHandlers } from "../../api/grpc/generated/racksmith/v1/Machines.js";
import type { ManagedHost } from "../../api/grpc/generated/racksmith/v1/ManagedHost.js";
import type { SiteExplorerHandlers } from "../../api/grpc/generated/racksmith/v1/SiteExplorer.js";
import { type GrpcServiceModule, requiredString, unary } from "../../api/index.js";
import type { SiteExplorer } from "../siteExplorer.js";
import type {
  EndpointDetail,
  EndpointErrorView,
  EndpointSummary,
  MachineDetail,
  MachineView,
  ManagedHostView,
} from "../views.js";
import { MACHINES_LIMITS, SITE_EXPLORER_LIMITS } from "./grpcLimits.js";

export const SITE_EXPLORER_SERVICE = "racksmith.v1.SiteExplorer";
export const MACHINES_SERVICE = "racksmith.v1.Machines";
const PROTO_FILE = "racksmith/v1/site_explorer.proto";

/** `racksmith.v1.SiteExplorer` and `racksmith.v1.Machines`: the REST API's reads and requests over gRPC. */
export function siteExplorerGrpcServices(
  explorer: SiteExplorer,
  requestRun: () => Promise<void>,
  logger: Logger,
): GrpcServiceModule[] {
  const context = { logger };
  const siteExplorer: SiteExplorerHandlers = {
    ListExploredEndpoints: unary(context, async () => ({
      endpoints: (await explorer.listEndpoints()).map((endpoint) => toEndpointMessage(endpoint)),
    })),
    GetExploredEndpoint: unary(context, async (request) =>
      toEndpointMessage(await explorer.getEndpoint(requiredString(request.address, "address"))),
    ),
    Explore: unary(context, async (request) => {
      const result = await explorer.exploreNow(requiredString(request.address, "address"), {
        mac: request.mac || undefined,
        credentials: request.credentials?.username
          ? { username: request.credentials.username, password: request.credentials.password }
          : undefined,
      });
      return {
        address: result.address,
        reportJson: result.report ? JSON.stringify(result.report) : "",
        ...(result.error ? { error: toErrorMessage(result.error) } : {}),
        latencyMs: result.latencyMs,
      };
    }),
    ReExplore: unary(context, async (request) => {
      await explorer.requestReExplore(requiredString(request.address, "address"));
      await requestRun();
      return {};
    }),
    ListManagedHosts: unary(context, async () => ({
      managedHosts: (await explorer.listManagedHosts()).map(toManagedHostMessage),
    })),
  };
  const machines: MachinesHandlers = {
    ListMachines: unary(context, async () => ({
      machines: (await explorer.listMachines()).map(toMachineMessage),
    })),
    GetMachine: unary(context, async (request) =>
      toMachineMessage(await explorer.getMachine(requiredString(request.id, "id"))),
    ),
  };
  return [
    {
      protoFile: PROTO_FILE,
      serviceName: SITE_EXPLORER_SERVICE,
      handlers: siteExplorer,
      limits: SITE_EXPLORER_LIMITS,
    },
    { protoFile: PROTO_FILE, serviceName: MACHINES_SERVICE, handlers: machines, limits: MACHINES_LIMITS },
  ];
}

/** Optional proto3 fields: present only when the value is. */
function optional<K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> {
  return value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function toErrorMessage(error: EndpointErrorView): ExplorationErrorMessage {
  return {
    code: error.code,
    message: error.message,
    ...optional("httpStatus", error.httpStatus),
    ...optional("bodyExcerpt", error.bodyExcerpt),
  };
}

function toEndpointMessage(endpoint: EndpointSummary | EndpointDetail): ExploredEndpoint {
  const report = "report" in endpoint ? endpoint.report : null;
  return {
    address: endpoint.address,
    ...optional("bmcMac", endpoint.bmcMac),
    ...optional("vendor", endpoint.vendor),
    ...optional("driver", endpoint.driver),
    ...(endpoint.lastError ? { lastError: toErrorMessage(endpoint.lastError) } : {}),
    reportVersion: endpoint.reportVersion,
    ...(endpoint.lastExploredAt ? { lastExploredAt: timestamp(endpoint.lastExploredAt) } : {}),
    ...optional("latencyMs", endpoint.latencyMs),
    explorationRequested: endpoint.explorationRequested,
    findings: endpoint.findings.map((finding) => ({
      code: finding.code,
      message: finding.message,
      detailsJson: JSON.stringify(finding.details),
    })),
    reportJson: report ? JSON.stringify(report) : "",
  };
}

function toManagedHostMessage(host: ManagedHostView): ManagedHost {
  return {
    hostAddress: host.hostAddress,
    status: host.status,
    ...optional("code", host.code),
    ...optional("reason", host.reason),
    ...optional("machineId", host.machineId),
    ...optional("serial", host.serial),
    dpus: host.dpus,
    ...optional("primaryDpu", host.primaryDpu),
    updatedAt: timestamp(host.updatedAt),
  };
}

function toMachineMessage(machine: MachineView | MachineDetail): Machine {
  const detail = "history" in machine ? machine : undefined;
  return {
    id: machine.id,
    kind: machine.kind,
    ...optional("state", machine.state),
    bmcAddress: machine.bmcAddress,
    bmcMac: machine.bmcMac,
    serial: machine.serial,
    dpus: machine.dpus ?? [],
    ...optional("primaryDpu", machine.primaryDpu),
    ...optional("host", machine.host),
    ...(detail
      ? {
          ...optional("vendor", detail.vendor),
          ...optional("model", detail.model),
          ...optional("hostFacingMac", detail.hostFacingMac),
          createdAt: timestamp(detail.createdAt),
          history: detail.history.map((entry) => ({
            state: entry.state,
            label: entry.label,
            version: String(entry.version),
            enteredAt: timestamp(entry.enteredAt),
            ...historyExtras(entry),
          })),
          lifecycleJson: detail.lifecycle ? JSON.stringify(detail.lifecycle) : "",
        }
      : {}),
  };
}
