import { type Logger, RacksmithError } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import { timestamp } from "../../api/grpc/convert.js";
import type { DpuAgentHandlers } from "../../api/grpc/generated/racksmith/v1/DpuAgent.js";
import type { HostAgentHandlers } from "../../api/grpc/generated/racksmith/v1/HostAgent.js";
import { type GrpcServiceModule, unary } from "../../api/index.js";
import {
  type AgentCertificateGrant,
  type AgentCertificates,
  PermissionDeniedError,
  type WorkloadIdentities,
} from "../../auth/index.js";
import type { Database } from "../../db/index.js";
import { type HostTestRuns, HostTestsNotLoadedError } from "../hostTests/index.js";
import { type AgentReport, agentReportWakes } from "../states.js";
import { agentAction } from "./agentAction.js";
import { readAgentControlView } from "./agentControlView.js";
import { AgentStore, type RecordedReport } from "./agentStore.js";
import {
  dpuHealthFromMessage,
  hostTestOutcomesFromMessage,
  interfacesFromMessage,
  inventoryFromMessage,
  validationResultsFromMessage,
} from "./convert.js";
import { enqueueHost } from "./enqueueHost.js";
import { DPU_AGENT_LIMITS, HOST_AGENT_LIMITS } from "./grpcLimits.js";
import { loadNetworkConfig } from "./loadNetworkConfig.js";
import { identifyMachine, requireMachine } from "./machineLookup.js";
import { requiredString, uint } from "./protoValues.js";

export const DPU_AGENT_SERVICE = "racksmith.v1.DpuAgent";
export const HOST_AGENT_SERVICE = "racksmith.v1.HostAgent";
const PROTO_FILE = "racksmith/v1/agents.proto";

export interface AgentServicesDeps {
  database: Database;
  engine: Pick<StateEngine, "enqueue">;
  logger: Logger;
  /** The time stamped on every report (tests move it). */
  clock?: () => Date;
  /** Whether the host agent runs the validation tests (lifecycle config `hostAgentValidation`). */
  hostAgentValidation: boolean;
  /** Machine validation tests (a plugin's host test rules); default none. */
  hostTestRuns?: () => HostTestRuns | undefined;
  /** Machine certificates for the agent listener; absent: a CSR is ignored and renewal refused. */
  agentCertificates?: AgentCertificates;
  /** Tenants' workload identities; absent: refused. */
  workloadIdentities?: Pick<WorkloadIdentities, "issue">;
}

/** `racksmith.v1.DpuAgent` and `racksmith.v1.HostAgent`: every report is stored, then its host enqueued. */
export function agentGrpcServices(deps: AgentServicesDeps): GrpcServiceModule[] {
  const { database, engine, logger } = deps;
  const context = { logger };
  const store = new AgentStore(database, deps.clock);
  const { db } = database;

  /**
   * Records one host-agent report on a known machine (an unknown one is NOT_FOUND), and runs its host when
   * the host's state reads that report (`agentReportWakes`).
   */
  const report = (machineId: string, kind: AgentReport, write: (id: string) => Promise<RecordedReport>) =>
    (async () => {
      const { recordedAt, hostId, hostState } = await write(requiredString(machineId, "machine_id"));
      if (agentReportWakes(kind, hostState)) await enqueueHost(engine, hostId, logger);
      return { recordedAt: timestamp(recordedAt.toISOString()) };
    })();

  const dpuAgent: DpuAgentHandlers = {
    GetManagedHostNetworkConfig: unary(context, async (request) =>
      loadNetworkConfig(database, requiredString(request.dpuId, "dpu_id")),
    ),
    RecordDpuNetworkStatus: unary(context, async (request) => {
      const dpuId = requiredString(request.dpuId, "dpu_id");
      const status = {
        appliedManagedHostConfigVersion: uint(
          request.appliedManagedHostConfigVersion,
          "applied_managed_host_config_version",
        ),
        appliedInstanceConfigVersion:
          request.appliedInstanceConfigVersion === undefined
            ? null
            : uint(request.appliedInstanceConfigVersion, "applied_instance_config_version"),
        interfaces: interfacesFromMessage(request.interfaces),
        health: dpuHealthFromMessage(request.health),
        agentVersion: request.agentVersion,
      };
      const { hostId, wake } = await store.recordDpuNetworkStatus(dpuId, status);
      if (wake) await enqueueHost(engine, hostId, logger);
      return {};
    }),
  };

  const hostAgent: HostAgentHandlers = {
    DiscoverMachine: unary(context, async (request, caller) => {
      const inventory = inventoryFromMessage(request.inventory);
      const machine = await identifyMachine(db, inventory);
      // A machine's agent discovers only itself: its certificate or token cannot get another machine one.
      if (caller?.role === "agent" && caller.machine !== machine.machineId) {
        throw new PermissionDeniedError(
          `the agent of machine ${caller.machine} may not discover machine ${machine.machineId}`,
        );
      }
      const recorded = await store.recordDiscovery(machine.machineId, inventory);
      if (agentReportWakes("discovery", recorded.hostState))
        await enqueueHost(engine, machine.hostId, logger);
      const grant =
        request.csrPem && deps.agentCertificates
          ? await deps.agentCertificates.issue(machine.machineId, request.csrPem)
          : undefined;
      return {
        machineId: machine.machineId,
        kind: machine.kind,
        ...(grant ? { certificate: certificateMessage(grant) } : {}),
      };
    }),
    GetWorkloadIdentity: unary(context, async (request, caller) => {
      if (caller?.proof !== "certificate" || !caller.machine || !deps.workloadIdentities) {
        throw new PermissionDeniedError(
          "a workload identity is asked for over the machine's own certificate",
        );
      }
      const instance = await db
        .selectFrom("instances")
        .select(["id", "tenant_org"])
        .where("machine_id", "=", caller.machine)
        .where("terminated_at", "is", null)
        .where("release_requested_at", "is", null)
        .executeTakeFirst();
      if (!instance) {
        throw new RacksmithError(
          "no_live_instance",
          "FAILED_PRECONDITION",
          `machine ${caller.machine} runs no tenant instance: a workload identity names its tenant`,
        );
      }
      const audience = requiredString(request.audience, "audience");
      const issued = await deps.workloadIdentities.issue({
        machineId: caller.machine,
        tenantOrg: instance.tenant_org,
        instanceId: instance.id,
        audience,
      });
      return {
        token: issued.token,
        expiresAt: timestamp(issued.expiresAt.toISOString()),
        spiffeId: issued.spiffeId,
      };
    }),
    RenewAgentCertificate: unary(context, async (request, caller) => {
      if (caller?.proof !== "certificate" || !caller.machine || !deps.agentCertificates) {
        throw new PermissionDeniedError(
          "only a machine's agent certificate renews it: call the agent listener with the current one",
        );
      }
      return certificateMessage(
        await deps.agentCertificates.issue(caller.machine, requiredString(request.csrPem, "csr_pem")),
      );
    }),
    AgentControl: unary(context, async (request) => {
      const view = await readAgentControlView(db, requiredString(request.machineId, "machine_id"));
      await store.recordContact(view.machineId);
      if (!view.host) return { action: "noop", validationContext: "" };
      const hostTests = deps.hostTestRuns?.();
      // Only a host agent in validation can have tests to run: the lookup is skipped on every other poll.
      const hostTestRun =
        hostTests && view.kind === "host" && view.host.state.state === "validation"
          ? await hostTests.pendingRun(view.machineId)
          : null;
      const decided = agentAction({
        ...view.host,
        reports: view.reports,
        hostAgentValidation: deps.hostAgentValidation,
        kind: view.kind,
        hostTestRun,
      });
      return {
        action: decided.action,
        validationContext: decided.validationContext ?? "",
        validationRunId: decided.hostTests?.runId ?? "",
        tests: (decided.hostTests?.tests ?? []).map((test) => ({
          id: test.id,
          command: test.command,
          args: test.args,
          timeoutMs: String(test.timeoutMs),
        })),
      };
    }),
    DiscoveryCompleted: unary(context, (request) =>
      report(request.machineId, "discoveryCompleted", (id) => store.recordDiscoveryCompleted(id)),
    ),
    RebootCompleted: unary(context, (request) =>
      report(request.machineId, "rebootCompleted", (id) => store.recordRebootCompleted(id)),
    ),
    CleanupCompleted: unary(context, (request) =>
      report(request.machineId, "cleanupCompleted", (id) =>
        store.recordCleanupCompleted(id, { success: request.success, message: request.message }),
      ),
    ),
    ValidationCompleted: unary(context, async (request) => {
      if (request.runId) {
        const hostTests = deps.hostTestRuns?.();
        if (!hostTests) throw new HostTestsNotLoadedError();
        const outcomes = hostTestOutcomesFromMessage(request.results);
        return report(request.machineId, "validationCompleted", async (id) => {
          // The run's outcomes are judged only for a machine that exists.
          await requireMachine(db, id);
          return store.recordValidationCompleted(
            id,
            await hostTests.recordOutcomes(id, request.runId, outcomes),
          );
        });
      }
      const result = {
        context: requiredString(request.context, "context"),
        passed: request.passed,
        results: validationResultsFromMessage(request.results),
      };
      return report(request.machineId, "validationCompleted", (id) =>
        store.recordValidationCompleted(id, result),
      );
    }),
  };

  return [
    {
      protoFile: PROTO_FILE,
      serviceName: DPU_AGENT_SERVICE,
      handlers: dpuAgent,
      limits: DPU_AGENT_LIMITS,
      agentFacing: true,
    },
    {
      protoFile: PROTO_FILE,
      serviceName: HOST_AGENT_SERVICE,
      handlers: hostAgent,
      limits: HOST_AGENT_LIMITS,
      agentFacing: true,
    },
  ];
}

function certificateMessage(grant: AgentCertificateGrant) {
  return {
    certificatePem: grant.certificatePem,
    caCertificatePem: grant.caCertificatePem,
    agentAddress: grant.agentAddress,
    expiresAt: timestamp(grant.expiresAt.toISOString()),
  };
}
