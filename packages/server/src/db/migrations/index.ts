import { stateEngine } from "./0001_state_engine.js";
import { inventory } from "./0002_inventory.js";
import { siteExplorer } from "./0003_site_explorer.js";
import { lifecycle } from "./0004_lifecycle.js";
import { health } from "./0005_health.js";
import { infiniband } from "./0006_infiniband.js";
import { nvlink } from "./0007_nvlink.js";
import { stateHistoryExit } from "./0008_state_history_exit.js";
import { sku } from "./0009_sku.js";
import { machineValidation } from "./0010_machine_validation.js";
import { auth } from "./0011_auth.js";
import { hostFacingMacIndex } from "./0012_host_facing_mac_index.js";
import type { Migration } from "./migration.js";

export type { Migration } from "./migration.js";

/** Every migration, in the order they run. To change the schema, add a file and append it here. */
export const MIGRATIONS: readonly Migration[] = [
  stateEngine,
  inventory,
  siteExplorer,
  lifecycle,
  health,
  infiniband,
  nvlink,
  stateHistoryExit,
  sku,
  machineValidation,
  auth,
  hostFacingMacIndex,
];
