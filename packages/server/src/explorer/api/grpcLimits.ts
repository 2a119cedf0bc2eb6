import type { MachinesHandlers } from "../../api/grpc/generated/racksmith/v1/Machines.js";
import type { SiteExplorerHandlers } from "../../api/grpc/generated/racksmith/v1/SiteExplorer.js";
import { DEFAULT_LIMITS, type ServiceLimits } from "../../api/index.js";

/** `racksmith.v1.SiteExplorer`: addresses, MACs and credentials, all within the defaults. */
export const SITE_EXPLORER_LIMITS: ServiceLimits<SiteExplorerHandlers> = {
  ListExploredEndpoints: DEFAULT_LIMITS,
  GetExploredEndpoint: DEFAULT_LIMITS,
  Explore: DEFAULT_LIMITS,
  ReExplore: DEFAULT_LIMITS,
  ListManagedHosts: DEFAULT_LIMITS,
};

/** `racksmith.v1.Machines`: a machine id. */
export const MACHINES_LIMITS: ServiceLimits<MachinesHandlers> = {
  ListMachines: DEFAULT_LIMITS,
  GetMachine: DEFAULT_LIMITS,
};
