import type { InventoryHandlers } from "../../api/grpc/generated/racksmith/v1/Inventory.js";
import { DEFAULT_LIMITS, type MethodLimits, type ServiceLimits } from "../../api/index.js";
import { EXPECTED_MACHINES_BATCH_LIMIT_BYTES, EXPECTED_MACHINES_BATCH_MAX_ITEMS } from "./limits.js";

/** A batch carries a whole site, as the REST batch route does: its rows and bytes, not each row's fields. */
const BATCH: MethodLimits = {
  maxItems: { machines: EXPECTED_MACHINES_BATCH_MAX_ITEMS },
  maxRequestBytes: EXPECTED_MACHINES_BATCH_LIMIT_BYTES,
};

/** `racksmith.v1.Inventory`: one machine's fields fit the defaults; only the batches are large. */
export const INVENTORY_LIMITS: ServiceLimits<InventoryHandlers> = {
  AddExpectedMachine: DEFAULT_LIMITS,
  UpdateExpectedMachine: DEFAULT_LIMITS,
  DeleteExpectedMachine: DEFAULT_LIMITS,
  GetExpectedMachine: DEFAULT_LIMITS,
  ListExpectedMachines: DEFAULT_LIMITS,
  CreateExpectedMachines: BATCH,
  ReplaceAllExpectedMachines: BATCH,
  DiscoverDhcp: DEFAULT_LIMITS,
  ListDhcpLeases: DEFAULT_LIMITS,
  ListBmcEndpoints: DEFAULT_LIMITS,
};
