export {
  type IfMatch,
  type MultipartUpload,
  parseAddress,
  type RedfishAuthMode,
  RedfishClient,
  type RedfishClientOptions,
  type RedfishCredentials,
  type RedfishResponse,
  type RequestOptions,
} from "./client.js";
export { BmcConnectionPool, sharedBmcConnectionPool, type TlsOptions } from "./connectionPool.js";
export {
  extendedInfoOf,
  PasswordChangeRequiredError,
  RedfishAbortedError,
  RedfishConnectionError,
  RedfishHttpError,
  RedfishMalformedResponseError,
  type RedfishMessage,
  RedfishTaskFailedError,
  RedfishTimeoutError,
} from "./errors.js";
export { etagsMatch, normalizeEtag } from "./etag.js";
export { parseServiceMetadata, type ServiceMetadata } from "./metadata.js";
export { lastSegment, toRequestPath } from "./path.js";
export { type ProbeOptions, probeService, type ServiceProbe } from "./probe.js";
export {
  type AccountService,
  type ActionTarget,
  type Bios,
  type BiosValue,
  type BootOption,
  type BootSettings,
  type Chassis,
  type Collection,
  type ComputerSystem,
  checkResource,
  type Diagnostic,
  type DiagnosticSeverity,
  type Drive,
  type EthernetInterface,
  type FieldImportance,
  type FieldSpec,
  type FieldType,
  type LogEntry,
  type LogService,
  type Manager,
  type ManagerAccount,
  type NetworkAdapter,
  type NetworkDeviceFunction,
  type PCIeDevice,
  type Port,
  type Power,
  RESOURCE_FIELDS,
  type RedfishResource,
  type ResourceKind,
  type ResourceStatus,
  type SecureBoot,
  type Sensor,
  type SerialConsoleProtocols,
  type ServiceRoot,
  type SoftwareInventory,
  type Storage,
  type Task,
  type TaskService,
  type Thermal,
  type Thresholds,
  type UpdateService,
} from "./resources/index.js";
export { backoffDelay, DEFAULT_RETRY_POLICY, isIdempotent, type RetryPolicy } from "./retry.js";
export { Semaphore } from "./semaphore.js";
export { type RedfishTaskResult, type TaskWaitOptions, waitForTask } from "./taskMonitor.js";
export type { ODataLink, RedfishObject } from "./types.js";
