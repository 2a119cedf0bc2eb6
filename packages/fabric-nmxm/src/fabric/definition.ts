import type { NvLinkFabric, NvLinkFabricContext, NvLinkFabricDefinition } from "@racksmith/core/nvlink";
import { parseNmxmConfig, readConnectionSettings } from "../config/index.js";
import { nmxmConfigSchema } from "../config/schema.js";
import { NmxmFabric } from "./nmxmFabric.js";

/** Creates the fabric from a `fabrics.nvlink` section: checks it, reads the credential files, connects lazily. */
export async function createNmxmFabric(
  config: Readonly<Record<string, unknown>>,
  context: NvLinkFabricContext,
): Promise<NvLinkFabric> {
  const parsed = parseNmxmConfig(config);
  const connection = await readConnectionSettings(parsed, context.baseDir);
  context.logger.info(
    // The endpoint and user name help an operator; the password file's content never reaches a log.
    { fabric: "nmxm", endpoint: parsed.endpoint, allowInsecure: parsed.allowInsecure },
    "NVLink fabric NMX-M configured",
  );
  return new NmxmFabric(
    connection,
    {
      monitorIntervalMs: parsed.monitorIntervalMs,
      operationTimeoutMs: parsed.operationTimeoutMs,
      operationPollMs: parsed.operationPollMs,
    },
    { name: "nmxm", logger: context.logger },
  );
}

export const nmxmFabric: NvLinkFabricDefinition = {
  name: "nmxm",
  description: "NVLink partitions through NVIDIA NMX-M (REST)",
  configSchema: nmxmConfigSchema,
  create: createNmxmFabric,
};
