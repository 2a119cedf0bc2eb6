import { readFileSync } from "node:fs";
import { definePlugin } from "@racksmith/core";
import { ufmFabric } from "./fabric/index.js";

// Read at runtime so the manifest's version is the package's, from src (tests) and dist alike.
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default definePlugin({
  name: "@racksmith/fabric-ufm",
  version,
  apiVersion: 1,
  description: "InfiniBand fabric for NVIDIA UFM (partitions, GUID binding, QoS, port states)",
  register(registry) {
    registry.infinibandFabric(ufmFabric);
  },
});

export {
  type UfmBindRequest,
  UfmClient,
  type UfmClientAuth,
  type UfmClientOptions,
  type UfmMembership,
  type UfmPartition,
  type UfmPartitionGuid,
  type UfmPartitionOptions,
  type UfmPort,
  type UfmQosConf,
  type UfmQosRequest,
  type UfmRawResponse,
  type UfmRequestOptions,
  type UfmSmConfig,
  type UfmTlsOptions,
  type UfmUnbindRequest,
  type UfmVersion,
} from "./client/index.js";
export {
  parseUfmFabricConfig,
  readUfmCredentials,
  UFM_AUTH_MODES,
  UFM_CONFIG_KEY,
  UFM_CONFIG_SCHEMA,
  type UfmAuthMode,
  type UfmCredentials,
  type UfmFabricConfig,
} from "./config/index.js";
export { UfmInfiniBandFabric, ufmFabric } from "./fabric/index.js";
