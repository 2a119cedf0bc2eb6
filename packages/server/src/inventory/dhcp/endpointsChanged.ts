import { type Kysely, sql } from "kysely";
import { channelName, type RacksmithDatabase } from "../../db/index.js";
import { BMC_ENDPOINTS_CHANGED_TOPIC } from "../contracts.js";

/**
 * Tells every listener (the exploration loops of all replicas) that these BMCs are new or have a new address.
 * Call it inside the writing transaction: PostgreSQL delivers the NOTIFY when the transaction commits, and
 * never when it rolls back.
 */
export async function notifyBmcEndpointsChanged(
  trx: Kysely<RacksmithDatabase>,
  schema: string | undefined,
  bmcMacs: readonly string[],
): Promise<void> {
  if (bmcMacs.length === 0) return;
  const payload = bmcMacs.length === 1 ? (bmcMacs[0] as string) : "*";
  await sql`SELECT pg_notify(${channelName(BMC_ENDPOINTS_CHANGED_TOPIC, schema)}, ${payload})`.execute(trx);
}
