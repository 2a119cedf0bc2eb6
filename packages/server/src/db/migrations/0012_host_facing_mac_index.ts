import type { Migration } from "./migration.js";

/**
 * A machine found by a DPU's host-facing MAC (an agent whose serial the service does not know: a host whose BMC
 * reports another serial, or any machine not ingested yet, asking again until it is) through an index on the
 * MAC as `identifyMachine` compares it, instead of normalising every machine's MAC at every such call.
 */
export const hostFacingMacIndex: Migration = {
  name: "0012_host_facing_mac_index",
  statements: [
    `CREATE INDEX machines_by_host_facing_mac
      ON machines ((upper(regexp_replace(host_facing_mac, '[^0-9A-Fa-f]', '', 'g'))))`,
  ],
};
