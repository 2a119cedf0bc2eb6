export { defineInfiniBandFabric } from "./defineInfiniBandFabric.js";
export {
  DEFAULT_INFINIBAND_FABRIC_SETTINGS,
  disabledInfiniBandFabric,
} from "./disabled.js";
export {
  InfiniBandFabricAuthError,
  InfiniBandFabricBadResponseError,
  InfiniBandFabricConfigError,
  InfiniBandFabricDisabledError,
  InfiniBandFabricError,
  type InfiniBandFabricErrorCode,
  InfiniBandFabricNotFoundError,
  InfiniBandFabricRejectedError,
  InfiniBandFabricTimeoutError,
  InfiniBandFabricUnavailableError,
} from "./errors.js";
export type {
  InfiniBandFabric,
  InfiniBandFabricContext,
  InfiniBandFabricDefinition,
  InfiniBandFabricSettings,
} from "./fabric.js";
export { type IbGuid, isIbGuid, normalizeIbGuid } from "./guid.js";
export {
  DEFAULT_PKEY,
  formatPkey,
  isPkey,
  MAX_PKEY,
  type Pkey,
  type PkeyRange,
  parsePkey,
  pkeyInRanges,
} from "./pkey.js";
export {
  checkInfiniBandQos,
  DEFAULT_INFINIBAND_QOS,
  INFINIBAND_MAX_SERVICE_LEVEL,
  INFINIBAND_MTUS,
  INFINIBAND_RATE_LIMITS,
  type InfiniBandQos,
  sameInfiniBandQos,
} from "./qos.js";
export {
  checkInfiniBandFabricSecurity,
  type InfiniBandSecurityFinding,
  type InfiniBandSecuritySetting,
} from "./security.js";
export {
  INFINIBAND_PORT_STATES,
  type InfiniBandBindOptions,
  type InfiniBandCallOptions,
  type InfiniBandFabricVersions,
  type InfiniBandMembership,
  type InfiniBandPartition,
  type InfiniBandPartitionMember,
  type InfiniBandPartitionQuery,
  type InfiniBandPort,
  type InfiniBandPortFilter,
  type InfiniBandPortState,
  type InfiniBandSubnetManagerConfig,
} from "./types.js";
