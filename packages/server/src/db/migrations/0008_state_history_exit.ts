import type { Migration } from "./migration.js";

/** How each state ended: the last outcome recorded while in it (a wait's reason, an error), kept with its history row. */
export const stateHistoryExit: Migration = {
  name: "0008_state_history_exit",
  statements: [`ALTER TABLE state_history ADD COLUMN exit_outcome jsonb`],
};
