import type { InstanceConfig } from "../tables.js";

/** The host-facing function and network every DPU keeps for the admin (provisioning) network. */
export const ADMIN_INTERFACE = { function: "pf0", network: "admin" } as const;

export interface NetworkInterfaceConfig {
  function: string;
  network: string;
}

/** The ManagedHostNetworkConfig message (racksmith.v1, agents.proto) as the DPU agent receives it. */
export interface ManagedHostNetworkConfig {
  dpuId: string;
  hostId: string;
  managedHostConfigVersion: number;
  useAdminNetwork: boolean;
  adminInterface: NetworkInterfaceConfig;
  tenantInterfaces: NetworkInterfaceConfig[];
  instanceId?: string;
  instanceConfigVersion?: number;
}

export interface DesiredNetworkConfigInput {
  dpu: { id: string; hostId: string; primary: boolean };
  /** From the host's managed_hosts row (defaults when it has none: admin network, version 1). */
  host: { useAdminNetwork: boolean; networkConfigVersion: number };
  /** The host's instance, if any (a terminated one counts as none). */
  instance:
    | { id: string; configVersion: number; config: InstanceConfig; terminatedAt: Date | string | null }
    | null
    | undefined;
}

/** The defaults of a host without a managed_hosts row. */
export const DEFAULT_HOST_NETWORK = { useAdminNetwork: true, networkConfigVersion: 1 } as const;

/**
 * What one DPU must apply. The tenant's interfaces go to the primary DPU only (our instance config has no
 * per-DPU placement yet), and only once the lifecycle has moved the host off the admin network; until then
 * the DPU keeps the host isolated whatever instance exists.
 */
export function desiredNetworkConfig(input: DesiredNetworkConfigInput): ManagedHostNetworkConfig {
  const { dpu, host } = input;
  const instance = input.instance && input.instance.terminatedAt === null ? input.instance : undefined;
  const tenant = !host.useAdminNetwork && instance !== undefined;
  return {
    dpuId: dpu.id,
    hostId: dpu.hostId,
    managedHostConfigVersion: host.networkConfigVersion,
    useAdminNetwork: host.useAdminNetwork,
    adminInterface: { ...ADMIN_INTERFACE },
    tenantInterfaces:
      tenant && dpu.primary
        ? instance.config.network.interfaces.map((i) => ({ function: i.function, network: i.network }))
        : [],
    ...(tenant ? { instanceId: instance.id, instanceConfigVersion: instance.configVersion } : {}),
  };
}
