import { InvalidArgumentError } from "@racksmith/core";
import type { NvLinkFabric } from "@racksmith/core/nvlink";
import { hostHealthRecorder } from "../../health/service/index.js";
import { INSTANCE_FABRICS } from "../../lifecycle/index.js";
import type { ConfigCheckContext, FeatureContext, ServiceFeature } from "../../service/feature.js";
import { type FabricSectionName, fabricSectionProblems, selectFabricDefinition } from "../common/index.js";
import { nvlinkApi, nvlinkGrpcServices, nvlinkRestRoutes } from "./tenant/api/index.js";
import { NvLinkMonitor } from "./tenant/monitor/index.js";
import { nvlinkInstanceFabric } from "./tenant/nvlinkInstanceFabric.js";
import { LogicalPartitionService } from "./tenant/partitions/index.js";

const SECTION: FabricSectionName = {
  key: "nvlink",
  label: "NVLink",
  examplePlugin: "@racksmith/fabric-nmxm",
};
const FABRIC_KEY_PROBLEM = "fabrics.nvlink.fabric: must name a registered NVLink fabric";

/** Options tests use to speed the monitor up. */
export interface NvLinkFeatureOptions {
  /** Delay of the monitor's next pass after one that changed something (default 1 s). */
  fastIntervalMs?: number;
}

/**
 * NVLink tenant isolation (issue 9). Without `fabrics.nvlink` it only answers its APIs with
 * `nvlink_not_configured`. With it: the configured fabric, the `nvlink` instance fabric for the lifecycle,
 * the partition monitor and the APIs. Logical partitions need no state machine: they are Ready when made and
 * the monitor carries out their deletion.
 */
export function createNvLinkFeature(options: NvLinkFeatureOptions = {}): ServiceFeature {
  return {
    name: "nvlink",
    validateConfig: nvlinkConfigCheck,
    machines: () => [],
    async setup(context) {
      const section = context.config.config.fabrics?.nvlink;
      if (!section) {
        const api = nvlinkApi(null);
        return { rest: nvlinkRestRoutes(api), grpc: nvlinkGrpcServices(api, context.logger) };
      }
      const { fabric: name, ...pluginConfig } = section as Record<string, unknown>;
      if (name !== undefined && typeof name !== "string") {
        throw new InvalidArgumentError(FABRIC_KEY_PROBLEM);
      }
      const fabric = await createFabric(context, name, pluginConfig);
      const { database, logger } = context;
      const recordReport = hostHealthRecorder(context);
      const monitor = new NvLinkMonitor({
        recordReport,
        database,
        fabric,
        logger,
        registry: context.metrics,
        processorId: context.processorId,
        ...(options.fastIntervalMs !== undefined ? { fastIntervalMs: options.fastIntervalMs } : {}),
      });
      const wake = () => monitor.wake();
      const service = new LogicalPartitionService({ database, wake });
      context.extensions.add(
        INSTANCE_FABRICS,
        nvlinkInstanceFabric({
          database,
          fabric,
          logger,
          wake,
          reachable: () => monitor.reachable(),
          recordReport,
        }),
      );
      const api = nvlinkApi({ service, fabric });
      return {
        rest: nvlinkRestRoutes(api),
        grpc: nvlinkGrpcServices(api, logger),
        start: async () => monitor.start(),
        stop: async () => {
          await monitor.stop();
          await fabric.close();
        },
      };
    },
  };
}

export const nvlinkFeature: ServiceFeature = createNvLinkFeature();

/** The section's `fabric` key, and the plugin's keys against the fabric it names (no fabric is created). */
function nvlinkConfigCheck({ config, host }: ConfigCheckContext): string[] {
  const section = config.config.fabrics?.nvlink;
  if (!section) return [];
  const { fabric } = section;
  return [
    ...(fabric !== undefined && (typeof fabric !== "string" || fabric === "") ? [FABRIC_KEY_PROBLEM] : []),
    ...fabricSectionProblems(
      SECTION,
      section,
      ["fabric"],
      host.nvlinkFabrics().map((entry) => entry.definition),
    ),
  ];
}

/** The definition `fabric` names (default: the only one loaded), created with the plugin's config. */
async function createFabric(
  context: FeatureContext,
  name: string | undefined,
  config: Record<string, unknown>,
): Promise<NvLinkFabric> {
  const definition = selectFabricDefinition(
    SECTION,
    context.host.nvlinkFabrics().map((entry) => entry.definition),
    name,
  );
  return definition.create(config, { logger: context.logger, baseDir: context.config.baseDir });
}
