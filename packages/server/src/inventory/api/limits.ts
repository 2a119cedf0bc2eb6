/**
 * A replace-all is one atomic request: at ~134 bytes a machine, fastify's default 1 MiB body stops at ~7,800
 * machines; 64 MiB holds ~500,000. The batch route's body limit and the inventory's gRPC message limit.
 */
export const EXPECTED_MACHINES_BATCH_LIMIT_BYTES = 64 * 1024 * 1024;

/** The most rows one batch may hold: a whole site (~500,000 machines of ~134 bytes fill the 64 MiB body). */
export const EXPECTED_MACHINES_BATCH_MAX_ITEMS = 500_000;
