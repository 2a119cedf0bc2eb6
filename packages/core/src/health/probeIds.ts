/**
 * Well-known probe ids and report sources (NICo's names, so operators and tooling moving between the two
 * recognise them). Ids are open strings: plugins add their own; these are the ones the core emits or reads.
 */
export const HEALTH_PROBE_IDS = {
  /** No (or no recent) report from an agent that should be reporting. */
  heartbeatTimeout: "HeartbeatTimeout",
  /** The host's BMC could not be explored (unreachable, or a malformed answer). */
  bmcExplorationFailure: "BmcExplorationFailure",
  /** The BMC says the host is not powered on. */
  poweredOff: "PoweredOff",
  /** The host's serial number differs from its expected-machine entry. */
  serialNumberMismatch: "SerialNumberMismatch",
  /** A BMC sensor is outside its thresholds; target = the sensor id. */
  bmcSensor: "BmcSensor",
  failedValidationTest: "FailedValidationTest",
  failedValidationTestCompletion: "FailedValidationTestCompletion",
  /** The host does not match its SKU, has none, or its SKU does not exist; target = the SKU id. */
  skuValidation: "SkuValidation",
  /** Override templates (see overrideTemplates.ts). */
  maintenance: "Maintenance",
  outForRepair: "OutForRepair",
  degraded: "Degraded",
} as const;

export const HEALTH_SOURCES = {
  /** The merged view of one managed host. */
  aggregate: "aggregate-host-health",
  dpuAgent: "forge-dpu-agent",
  siteExplorer: "site-explorer",
  /** Prefix of BMC sensor rollups (`hardware-health.<probe>`). */
  hardwareHealth: "hardware-health",
  machineValidation: "machine-validation",
  /** BOM validation: the host against its SKU. */
  skuValidation: "sku-validation",
} as const;
