import { childLogger } from "@racksmith/core";
import type { InfiniBandFabricDefinition } from "@racksmith/core/infiniband";
import { UfmClient } from "../client/index.js";
import { parseUfmFabricConfig, readUfmCredentials, UFM_CONFIG_SCHEMA } from "../config/index.js";
import { UfmInfiniBandFabric } from "./ufmFabric.js";

/** The `ufm` InfiniBand fabric: checks `fabrics.infiniband`, reads the credential files, connects lazily. */
export const ufmFabric: InfiniBandFabricDefinition = {
  name: "ufm",
  description: "InfiniBand partitions through NVIDIA UFM's REST API",
  configSchema: UFM_CONFIG_SCHEMA,
  async create(section, context) {
    const config = parseUfmFabricConfig(section);
    const { auth, tls } = await readUfmCredentials(config, context.baseDir);
    const client = new UfmClient({
      endpoint: config.endpoint,
      auth,
      tls,
      timeoutMs: config.timeoutMs,
      logger: childLogger(context.logger, { fabric: "ufm" }),
      fabric: "ufm",
    });
    return new UfmInfiniBandFabric(client, {
      pkeyRanges: config.pkeyRanges,
      qos: config.qos,
      monitorIntervalMs: config.monitorIntervalMs,
    });
  },
};
