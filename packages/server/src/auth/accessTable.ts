import type { Operation, Role } from "../api/index.js";
import { operationKey } from "../api/index.js";

/**
 * Whose objects a scoped rule limits a caller to: a `tenant` caller to its org's objects (the feature's
 * service filters by it), an `agent` caller to its own machine (checked against the request's machine).
 */
export type AccessScope = "tenant" | "machine";

/** One operation's rule: who may call it, and whether it changes anything (the audit log records those). */
export interface AccessRule {
  /** The roles admitted; `public`: anyone, without a token (probes, metrics, the API's description). */
  roles: readonly Role[] | "public";
  scope?: AccessScope;
  mutates: boolean;
  /** False for a mutating call the audit log leaves out: an agent's periodic status report. */
  audited?: false;
  /** Only over a machine certificate (the agent listener): no token, whatever its role, makes this call. */
  certificateOnly?: true;
}

// Role groups. `viewer` reads the site without secrets; `tenant` reaches only its org's instances and
// partitions; `agent` only its own machine's agent methods.
const VIEW: readonly Role[] = ["admin", "operator", "viewer"];
const OPERATE: readonly Role[] = ["admin", "operator"];
const TENANT_VIEW: readonly Role[] = ["admin", "operator", "viewer", "tenant"];
const TENANT_ACT: readonly Role[] = ["admin", "operator", "tenant"];
const AGENT: readonly Role[] = ["admin", "agent"];
const ADMIN: readonly Role[] = ["admin"];

const PUBLIC: AccessRule = { roles: "public", mutates: false };
const read = (roles: readonly Role[], scope?: AccessScope): AccessRule => ({
  roles,
  mutates: false,
  ...(scope ? { scope } : {}),
});
const write = (roles: readonly Role[], scope?: AccessScope): AccessRule => ({
  roles,
  mutates: true,
  ...(scope ? { scope } : {}),
});

/** Every REST route (fastify's path syntax) → its rule. A route missing here is refused at start. */
export const REST_ACCESS: Readonly<Record<string, AccessRule>> = {
  "GET /healthz": PUBLIC,
  "GET /readyz": PUBLIC,
  "GET /metrics": PUBLIC,
  "GET /openapi.json": PUBLIC,
  "GET /api/v1/version": PUBLIC,
  "GET /api/v1/objects/:objectType/:objectId": read(VIEW),
  "GET /api/v1/objects/:objectType": read(VIEW),
  "POST /api/v1/objects/:objectType/:objectId/enqueue": write(OPERATE),
  // Inventory
  "GET /api/v1/expected-machines": read(VIEW),
  "POST /api/v1/expected-machines": write(OPERATE),
  "GET /api/v1/expected-machines/:bmcMac": read(VIEW),
  "PUT /api/v1/expected-machines/:bmcMac": write(OPERATE),
  "DELETE /api/v1/expected-machines/:bmcMac": write(OPERATE),
  "POST /api/v1/expected-machines/batch": write(OPERATE),
  "POST /api/v1/dhcp/discover": write(OPERATE),
  "GET /api/v1/dhcp/leases": read(VIEW),
  "GET /api/v1/bmc-endpoints": read(VIEW),
  // Site explorer
  "GET /api/v1/site-explorer/endpoints": read(VIEW),
  "GET /api/v1/site-explorer/endpoints/:address": read(VIEW),
  "POST /api/v1/site-explorer/endpoints/:address/explore": write(OPERATE),
  "POST /api/v1/site-explorer/endpoints/:address/re-explore": write(OPERATE),
  "GET /api/v1/site-explorer/managed-hosts": read(VIEW),
  "GET /api/v1/machines": read(VIEW),
  "GET /api/v1/machines/:id": read(VIEW),
  // Lifecycle and instances
  "POST /api/v1/machines/:id/force-delete": write(OPERATE),
  "POST /api/v1/instances": write(TENANT_ACT, "tenant"),
  "GET /api/v1/instances": read(TENANT_VIEW, "tenant"),
  "GET /api/v1/instances/:id": read(TENANT_VIEW, "tenant"),
  "POST /api/v1/instances/:id/release": write(TENANT_ACT, "tenant"),
  "PUT /api/v1/instances/:id/config": write(TENANT_ACT, "tenant"),
  // Health
  "GET /api/v1/machines/:id/health": read(VIEW),
  "GET /api/v1/machines/:id/health/history": read(VIEW),
  "POST /api/v1/machines/:id/health/overrides": write(OPERATE),
  "DELETE /api/v1/machines/:id/health/overrides/:source": write(OPERATE),
  // SKUs
  "GET /api/v1/skus": read(VIEW),
  "POST /api/v1/skus": write(OPERATE),
  "POST /api/v1/skus/generate": write(OPERATE),
  "GET /api/v1/skus/:id": read(VIEW),
  "DELETE /api/v1/skus/:id": write(OPERATE),
  "POST /api/v1/skus/:id/assign": write(OPERATE),
  "GET /api/v1/machines/:id/sku": read(VIEW),
  "DELETE /api/v1/machines/:id/sku": write(OPERATE),
  "POST /api/v1/machines/:id/sku/verify": write(OPERATE),
  // Machine validation
  "GET /api/v1/validation/tests": read(VIEW),
  "POST /api/v1/validation/tests": write(OPERATE),
  "PATCH /api/v1/validation/tests/:id": write(OPERATE),
  "POST /api/v1/validation/tests/:id/enable": write(OPERATE),
  "POST /api/v1/validation/tests/:id/disable": write(OPERATE),
  "POST /api/v1/validation/tests/:id/verify": write(OPERATE),
  "POST /api/v1/machines/:id/validation/runs": write(OPERATE),
  "GET /api/v1/machines/:id/validation/runs": read(VIEW),
  "GET /api/v1/validation/runs/:id": read(VIEW),
  // InfiniBand; browsing the fabric manager shows its whole configuration: operators only
  "POST /api/v1/ib-partitions": write(TENANT_ACT, "tenant"),
  "GET /api/v1/ib-partitions": read(TENANT_VIEW, "tenant"),
  "GET /api/v1/ib-partitions/:id": read(TENANT_VIEW, "tenant"),
  "DELETE /api/v1/ib-partitions/:id": write(TENANT_ACT, "tenant"),
  "GET /api/v1/ib-fabric/health": read(VIEW),
  "GET /api/v1/ufm/browse": read(OPERATE),
  // NVLink
  "POST /api/v1/nvlink-partitions": write(TENANT_ACT, "tenant"),
  "GET /api/v1/nvlink-partitions": read(TENANT_VIEW, "tenant"),
  "GET /api/v1/nvlink-partitions/:id": read(TENANT_VIEW, "tenant"),
  "DELETE /api/v1/nvlink-partitions/:id": write(TENANT_ACT, "tenant"),
  "GET /api/v1/nmxm/browse": read(OPERATE),
  // Authentication and audit
  "POST /api/v1/auth/tokens": write(ADMIN),
  "GET /api/v1/auth/tokens": read(ADMIN),
  "POST /api/v1/auth/tokens/:id/revoke": write(ADMIN),
  "GET /api/v1/auth/whoami": read(["admin", "operator", "viewer", "tenant", "agent"]),
  "GET /api/v1/audit": read(ADMIN),
  // What verifies a tenant's workload identities: public, as any OIDC discovery document is
  "GET /api/v1/tenants/:org/.well-known/openid-configuration": PUBLIC,
  "GET /api/v1/tenants/:org/jwks.json": PUBLIC,
};

/** Every gRPC method (`package.Service/Method`) → its rule. Reflection and grpc.health.v1 are public. */
export const GRPC_ACCESS: Readonly<Record<string, AccessRule>> = {
  "racksmith.v1.Racksmith/Version": PUBLIC,
  "racksmith.v1.Racksmith/GetObjectState": read(VIEW),
  "racksmith.v1.Racksmith/ListObjects": read(VIEW),
  "racksmith.v1.Racksmith/Enqueue": write(OPERATE),
  // Agents: each only about its own machine (DiscoverMachine is how an agent learns it)
  "racksmith.v1.DpuAgent/GetManagedHostNetworkConfig": read(AGENT, "machine"),
  // Every DPU reports every few seconds: telemetry, not an operator's change, so not in the audit log.
  "racksmith.v1.DpuAgent/RecordDpuNetworkStatus": { ...write(AGENT, "machine"), audited: false },
  "racksmith.v1.HostAgent/DiscoverMachine": write(AGENT),
  "racksmith.v1.HostAgent/AgentControl": read(AGENT, "machine"),
  "racksmith.v1.HostAgent/DiscoveryCompleted": write(AGENT, "machine"),
  "racksmith.v1.HostAgent/RebootCompleted": write(AGENT, "machine"),
  "racksmith.v1.HostAgent/CleanupCompleted": write(AGENT, "machine"),
  "racksmith.v1.HostAgent/ValidationCompleted": write(AGENT, "machine"),
  // Only a machine's own certificate renews it: an agent token has no certificate to renew.
  "racksmith.v1.HostAgent/RenewAgentCertificate": { ...write(["agent"], "machine"), certificateOnly: true },
  "racksmith.v1.HostAgent/GetWorkloadIdentity": { ...read(["agent"], "machine"), certificateOnly: true },
  // Health
  "racksmith.v1.Health/GetMachineHealth": read(VIEW),
  "racksmith.v1.Health/ListHealthHistory": read(VIEW),
  "racksmith.v1.Health/AddHealthOverride": write(OPERATE),
  "racksmith.v1.Health/RemoveHealthOverride": write(OPERATE),
  // InfiniBand
  "racksmith.v1.InfiniBand/CreateIbPartition": write(TENANT_ACT, "tenant"),
  "racksmith.v1.InfiniBand/GetIbPartition": read(TENANT_VIEW, "tenant"),
  "racksmith.v1.InfiniBand/FindIbPartitions": read(TENANT_VIEW, "tenant"),
  "racksmith.v1.InfiniBand/DeleteIbPartition": write(TENANT_ACT, "tenant"),
  "racksmith.v1.InfiniBand/UfmBrowse": read(OPERATE),
  // Instances
  "racksmith.v1.Instances/AllocateInstance": write(TENANT_ACT, "tenant"),
  "racksmith.v1.Instances/ReleaseInstance": write(TENANT_ACT, "tenant"),
  "racksmith.v1.Instances/UpdateInstanceConfig": write(TENANT_ACT, "tenant"),
  "racksmith.v1.Instances/GetInstance": read(TENANT_VIEW, "tenant"),
  "racksmith.v1.Instances/FindInstances": read(TENANT_VIEW, "tenant"),
  // Inventory
  "racksmith.v1.Inventory/AddExpectedMachine": write(OPERATE),
  "racksmith.v1.Inventory/UpdateExpectedMachine": write(OPERATE),
  "racksmith.v1.Inventory/DeleteExpectedMachine": write(OPERATE),
  "racksmith.v1.Inventory/GetExpectedMachine": read(VIEW),
  "racksmith.v1.Inventory/ListExpectedMachines": read(VIEW),
  "racksmith.v1.Inventory/CreateExpectedMachines": write(OPERATE),
  "racksmith.v1.Inventory/ReplaceAllExpectedMachines": write(OPERATE),
  "racksmith.v1.Inventory/DiscoverDhcp": write(OPERATE),
  "racksmith.v1.Inventory/ListDhcpLeases": read(VIEW),
  "racksmith.v1.Inventory/ListBmcEndpoints": read(VIEW),
  // Lifecycle
  "racksmith.v1.Lifecycle/ForceDeleteMachine": write(OPERATE),
  // Machine validation
  "racksmith.v1.MachineValidation/ListValidationTests": read(VIEW),
  "racksmith.v1.MachineValidation/AddValidationTest": write(OPERATE),
  "racksmith.v1.MachineValidation/UpdateValidationTest": write(OPERATE),
  "racksmith.v1.MachineValidation/EnableValidationTest": write(OPERATE),
  "racksmith.v1.MachineValidation/DisableValidationTest": write(OPERATE),
  "racksmith.v1.MachineValidation/VerifyValidationTest": write(OPERATE),
  "racksmith.v1.MachineValidation/StartValidationRun": write(OPERATE),
  "racksmith.v1.MachineValidation/ListValidationRuns": read(VIEW),
  "racksmith.v1.MachineValidation/GetValidationRun": read(VIEW),
  // NVLink
  "racksmith.v1.NvLink/CreateNvLinkPartition": write(TENANT_ACT, "tenant"),
  "racksmith.v1.NvLink/ListNvLinkPartitions": read(TENANT_VIEW, "tenant"),
  "racksmith.v1.NvLink/GetNvLinkPartition": read(TENANT_VIEW, "tenant"),
  "racksmith.v1.NvLink/DeleteNvLinkPartition": write(TENANT_ACT, "tenant"),
  "racksmith.v1.NvLink/BrowseNmxm": read(OPERATE),
  // Site explorer
  "racksmith.v1.SiteExplorer/ListExploredEndpoints": read(VIEW),
  "racksmith.v1.SiteExplorer/GetExploredEndpoint": read(VIEW),
  "racksmith.v1.SiteExplorer/Explore": write(OPERATE),
  "racksmith.v1.SiteExplorer/ReExplore": write(OPERATE),
  "racksmith.v1.SiteExplorer/ListManagedHosts": read(VIEW),
  "racksmith.v1.Machines/ListMachines": read(VIEW),
  "racksmith.v1.Machines/GetMachine": read(VIEW),
  // SKUs
  "racksmith.v1.Skus/ListSkus": read(VIEW),
  "racksmith.v1.Skus/GetSku": read(VIEW),
  "racksmith.v1.Skus/CreateSku": write(OPERATE),
  "racksmith.v1.Skus/DeleteSku": write(OPERATE),
  "racksmith.v1.Skus/GenerateSku": write(OPERATE),
  "racksmith.v1.Skus/AssignSku": write(OPERATE),
  "racksmith.v1.Skus/GetMachineSku": read(VIEW),
  "racksmith.v1.Skus/UnassignSku": write(OPERATE),
  "racksmith.v1.Skus/VerifySku": write(OPERATE),
};

/** The rule for an operation, from the two tables (`extra` adds rules, for tests' stub routes). */
export function accessRuleOf(
  operation: Operation,
  extra: Readonly<Record<string, AccessRule>> = {},
): AccessRule | undefined {
  const key = operationKey(operation);
  const table = operation.api === "rest" ? REST_ACCESS : GRPC_ACCESS;
  return Object.hasOwn(extra, key) ? extra[key] : Object.hasOwn(table, key) ? table[key] : undefined;
}
