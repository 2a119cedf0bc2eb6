import { InvalidArgumentError } from "@racksmith/core";
import type { InfiniBandFabric } from "@racksmith/core/infiniband";
import { MANAGED_HOST_OBJECT_TYPE } from "../../explorer/index.js";
import { hostHealthRecorder } from "../../health/service/index.js";
import { INSTANCE_FABRICS } from "../../lifecycle/index.js";
import type { ConfigCheckContext, FeatureContext, ServiceFeature } from "../../service/feature.js";
import { type FabricSectionName, fabricSectionProblems, selectFabricDefinition } from "../common/index.js";
import { infinibandGrpcServices } from "./tenant/api/grpcService.js";
import { browsePath, type InfiniBandApi, infinibandRestRoutes, isBrowsable } from "./tenant/api/index.js";
import { InfiniBandNotConfiguredError } from "./tenant/errors.js";
import { infinibandInstanceFabric } from "./tenant/instanceFabric.js";
import { IbFabricMonitor, IbMonitorMetrics, readFabricHealth } from "./tenant/monitor/index.js";
import { IbPartitionService, ibPartitionMachine } from "./tenant/partitions/index.js";
import {
  INFINIBAND_CORE_KEYS,
  infiniBandSectionProblems,
  splitInfiniBandSection,
} from "./tenant/settings.js";

const SECTION: FabricSectionName = {
  key: "infiniband",
  label: "InfiniBand",
  examplePlugin: "@racksmith/fabric-ufm",
};

/**
 * InfiniBand tenant isolation (issue 8). Without `fabrics.infiniband` it only answers its APIs with
 * `infiniband_not_configured`. With it: the configured fabric, the `ib-partition` state machine, the
 * `infiniband` instance fabric for the lifecycle, the fabric monitor and the APIs.
 */
export function createInfinibandFeature(): ServiceFeature {
  let fabric: InfiniBandFabric | undefined;
  const current = (): InfiniBandFabric => {
    if (!fabric) throw new Error("the infiniband feature was not set up");
    return fabric;
  };
  return {
    name: "infiniband",
    validateConfig: infinibandConfigCheck,
    machines: (loaded) => (loaded.config.fabrics?.infiniband ? [ibPartitionMachine(current)] : []),
    async setup(context) {
      const section = context.config.config.fabrics?.infiniband;
      if (!section) {
        const api = notConfiguredApi();
        return { rest: infinibandRestRoutes(api), grpc: infinibandGrpcServices(api, context.logger) };
      }
      const settings = splitInfiniBandSection(section);
      fabric = await createFabric(context, settings.fabric, settings.pluginConfig);
      const ib = fabric;
      const { database, engine, logger } = context;
      const recordReport = hostHealthRecorder(context);
      const monitor = new IbFabricMonitor({
        db: database.db,
        fabric: ib,
        metrics: new IbMonitorMetrics(context.metrics, ib.name),
        logger,
        processorId: context.processorId,
        allowInsecure: settings.allowInsecureFabric,
        recordReport,
        enqueueHost: (hostId) => engine.enqueue(MANAGED_HOST_OBJECT_TYPE, hostId),
      });
      const partitions = new IbPartitionService({
        database,
        engine,
        settings: ib.settings,
        maxPartitionsPerTenant: settings.maxPartitionsPerTenant,
      });
      context.extensions.add(
        INSTANCE_FABRICS,
        infinibandInstanceFabric({
          db: database.db,
          fabric: ib,
          partitionState: async (id) => (await partitions.state(id))?.state,
          recordReport,
          pokeMonitor: () => monitor.poke(),
          logger,
        }),
      );
      const api: InfiniBandApi = {
        createPartition: (input, scope) => partitions.create(input, scope),
        listPartitions: (filter, scope) => partitions.list(filter, scope),
        getPartition: (id, scope) => partitions.get(id, scope),
        deletePartition: (id, scope) => partitions.delete(id, scope),
        fabricHealth: async () => (await readFabricHealth(database.db, ib.name)) ?? null,
        browse: async (input) => {
          const path = browsePath(input);
          if (!isBrowsable(ib))
            throw new InvalidArgumentError(`path: the InfiniBand fabric ${ib.name} offers no raw view`);
          return { path, ...(await ib.browse(path)) };
        },
      };
      return {
        rest: infinibandRestRoutes(api),
        grpc: infinibandGrpcServices(api, logger),
        start: async () => monitor.start(),
        stop: async () => {
          await monitor.stop();
          await ib.close();
        },
      };
    },
  };
}

export const infinibandFeature: ServiceFeature = createInfinibandFeature();

/** The section's core keys, and the plugin's keys against the fabric it names (no fabric is created). */
function infinibandConfigCheck({ config, host }: ConfigCheckContext): string[] {
  const section = config.config.fabrics?.infiniband;
  if (!section) return [];
  return [
    ...infiniBandSectionProblems(section),
    ...fabricSectionProblems(
      SECTION,
      section,
      INFINIBAND_CORE_KEYS,
      host.infinibandFabrics().map((entry) => entry.definition),
    ),
  ];
}

function notConfiguredApi(): InfiniBandApi {
  const refuse = (): Promise<never> => Promise.reject(new InfiniBandNotConfiguredError());
  return {
    createPartition: refuse,
    listPartitions: refuse,
    getPartition: refuse,
    deletePartition: refuse,
    fabricHealth: refuse,
    browse: refuse,
  };
}

/** The definition `fabric` names (default: the only one loaded), created with the plugin's config. */
async function createFabric(
  context: FeatureContext,
  name: string | undefined,
  config: Record<string, unknown>,
): Promise<InfiniBandFabric> {
  const definition = selectFabricDefinition(
    SECTION,
    context.host.infinibandFabrics().map((entry) => entry.definition),
    name,
  );
  return definition.create(config, { logger: context.logger, baseDir: context.config.baseDir });
}
