import type { ErrorStatus } from "./status.js";

/** One code of the catalogue: the status every error with this code carries, and what the code means. */
export interface ErrorCodeEntry {
  readonly status: ErrorStatus;
  /** One line: when this code is raised (no `|`: it is shown in the README's table). */
  readonly meaning: string;
}

/**
 * The one catalogue of Racksmith's stable error codes, for every package (core, server, drivers, fabrics,
 * testkit, simulator, cli). A code is snake_case, has one meaning and one status, and is never reused for
 * something else. `RacksmithError` only takes a code listed here (`ErrorCode`), so a new error means a new
 * entry here and a new row in the README's `## Error codes` table (`codes.test.ts` checks both agree).
 */
export const ERROR_CODES = {
  // ---- any package --------------------------------------------------------------------------------------
  internal: {
    status: "INTERNAL",
    meaning:
      "an unexpected failure (anything thrown that is not a Racksmith error); API clients get no details",
  },
  invalid_argument: {
    status: "INVALID_ARGUMENT",
    meaning: "a caller passed a value the operation cannot use; the message names the argument",
  },
  not_supported: {
    status: "UNIMPLEMENTED",
    meaning: "the hardware or its driver cannot do this operation (never raised for a transient failure)",
  },
  config_invalid: {
    status: "INVALID_ARGUMENT",
    meaning:
      "the config file or a plugin's config section is missing, unreadable or invalid; `problems` names each key",
  },

  // ---- Redfish client (`@racksmith/core/redfish`) ---------------------------------------------------------
  redfish_http_error: {
    status: "UNAVAILABLE",
    meaning:
      "a BMC answered a non-success HTTP status; the error's status follows it (401 UNAUTHENTICATED, 404 NOT_FOUND, …) and is UNAVAILABLE for a 5xx",
  },
  password_change_required: {
    status: "PERMISSION_DENIED",
    meaning: "the BMC answered 403 PasswordChangeRequired: the account must change its password before use",
  },
  redfish_connection_error: {
    status: "UNAVAILABLE",
    meaning: "the BMC cannot be reached or dropped the connection (refused, reset, DNS, TLS)",
  },
  redfish_timeout: {
    status: "DEADLINE_EXCEEDED",
    meaning: "a connect, request or task deadline passed on a BMC",
  },
  redfish_aborted: {
    status: "ABORTED",
    meaning:
      "the caller aborted a BMC request (deadline, shutdown); whether a request already sent took effect is unknown",
  },
  redfish_malformed_response: {
    status: "UNAVAILABLE",
    meaning: "the BMC answered 2xx with a body that is not a JSON object",
  },
  redfish_task_failed: {
    status: "ABORTED",
    meaning: "a BMC task ended in a failed state (Exception, Killed, Cancelled, …)",
  },

  // ---- BMC drivers (RedfishStandard and the vendor drivers) ---------------------------------------------
  no_system: {
    status: "FAILED_PRECONDITION",
    meaning: "the BMC lists no computer system",
  },
  no_manager: {
    status: "FAILED_PRECONDITION",
    meaning: "the BMC lists no manager",
  },
  no_task: {
    status: "INTERNAL",
    meaning: "the BMC accepted a firmware update but named no task to follow",
  },
  no_job: {
    status: "INTERNAL",
    meaning: "the BMC accepted a request that should create a job but named none (iDRAC)",
  },
  job_not_found: {
    status: "NOT_FOUND",
    meaning: "the BMC has no job with this id (iDRAC: deleted by a queue clear, or never existed)",
  },
  bmc_auth_failed: {
    status: "UNAUTHENTICATED",
    meaning: "the BMC refused the credentials given (HTTP 401): check the user name and password",
  },
  bmc_job_queue_busy: {
    status: "FAILED_PRECONDITION",
    meaning:
      "the BMC's job queue holds a job that blocks the change; retry after it ran or was deleted (iDRAC)",
  },
  bmc_locked_down: {
    status: "FAILED_PRECONDITION",
    meaning: "the iDRAC refused a change because System Lockdown is on; disable lockdown first",
  },
  system_lockdown_enabled: {
    status: "FAILED_PRECONDITION",
    meaning: "a Supermicro BMC refused a change because System Lockdown is on; disable lockdown first",
  },
  bmc_setting_read_only: {
    status: "FAILED_PRECONDITION",
    meaning:
      "the BIOS refused an attribute the operation needs as read-only for now (pending change or reboot)",
  },
  bios_attribute_unknown: {
    status: "INVALID_ARGUMENT",
    meaning: "a BIOS attribute name matches no attribute of this BMC, even ignoring firmware suffixes",
  },
  boot_option_not_found: {
    status: "FAILED_PRECONDITION",
    meaning:
      "no boot option boots what was asked (a target, or network boot from a MAC); nothing was changed",
  },
  dpu_nic_not_found: {
    status: "NOT_FOUND",
    meaning: "no network device function of the host has the MAC given as the DPU's host-facing port",
  },
  account_not_found: {
    status: "NOT_FOUND",
    meaning: "the BMC has no account with this user name",
  },
  account_exists: {
    status: "ALREADY_EXISTS",
    meaning: "the BMC already has an account with this user name",
  },
  account_not_created: {
    status: "INTERNAL",
    meaning: "the BMC accepted a new account but does not list it",
  },
  account_slots_full: {
    status: "RESOURCE_EXHAUSTED",
    meaning: "every account slot of the BMC holds a user (iDRAC's fixed table); delete one first",
  },
  serial_console_not_configurable: {
    status: "FAILED_PRECONDITION",
    meaning: "the serial console is not fully on and the BMC does not let Redfish turn it on",
  },
  firmware_update_busy: {
    status: "UNAVAILABLE",
    meaning: "another firmware update is running on the BMC; retry when it finished",
  },
  nic_mode_unknown: {
    status: "FAILED_PRECONDITION",
    meaning: "the DPU's BMC reports a NIC/DPU mode value the driver does not know",
  },
  base_mac_unavailable: {
    status: "FAILED_PRECONDITION",
    meaning:
      "neither the DPU's OEM BaseMAC nor its DPU_SYS_IMAGE firmware entry yields the host-facing base MAC",
  },
  no_serial_number: {
    status: "FAILED_PRECONDITION",
    meaning: "the BMC reports no serial number for the DPU card or its system",
  },
  uefi_password_change_failed: {
    status: "FAILED_PRECONDITION",
    meaning:
      "the BMC refused to stage the UEFI password change (its message is left out: it may echo passwords)",
  },

  // ---- fabric contracts (InfiniBand, NVLink) -------------------------------------------------------------
  fabric_unavailable: {
    status: "UNAVAILABLE",
    meaning: "the fabric manager cannot be reached (refused, reset, DNS, TLS) or answered 5xx",
  },
  fabric_timeout: {
    status: "DEADLINE_EXCEEDED",
    meaning: "a fabric manager request took longer than the configured timeout",
  },
  fabric_not_found: {
    status: "NOT_FOUND",
    meaning: "the fabric resource (partition, GPU, operation…) does not exist (any more)",
  },
  fabric_disabled: {
    status: "FAILED_PRECONDITION",
    meaning: "the fabric's partitioning is not configured (the built-in disabled fabric)",
  },
  fabric_auth_failed: {
    status: "UNAUTHENTICATED",
    meaning: "the fabric manager refused the credentials (HTTP 401 / 403)",
  },
  fabric_rejected: {
    status: "FAILED_PRECONDITION",
    meaning: "the fabric manager refused the request (HTTP 4xx other than auth and not-found)",
  },
  fabric_bad_response: {
    status: "INTERNAL",
    meaning:
      "the fabric manager's answer cannot be used: malformed JSON, an unexpected shape, or over a size limit",
  },

  // ---- state engine (`@racksmith/core/engine`) ------------------------------------------------------------
  state_object_exists: {
    status: "ALREADY_EXISTS",
    meaning: "a state object with this type and id already exists",
  },
  state_object_not_found: {
    status: "NOT_FOUND",
    meaning: "no state object has this type and id",
  },
  state_unknown_object_type: {
    status: "INVALID_ARGUMENT",
    meaning: "no state machine handles this object type",
  },
  state_unknown: {
    status: "FAILED_PRECONDITION",
    meaning: "the stored state has a tag its machine has no handler for (e.g. written by a newer version)",
  },
  state_object_missing: {
    status: "FAILED_PRECONDITION",
    meaning: "an object has a state row but its machine could not load it",
  },
  handler_timeout: {
    status: "DEADLINE_EXCEEDED",
    meaning: "a state handler ran past handlerTimeoutMs; its result is discarded",
  },
  state_invalid_outcome: {
    status: "INTERNAL",
    meaning: "a state handler returned something that is not an outcome",
  },

  // ---- server: plugins -------------------------------------------------------------------------------------
  plugin_not_found: {
    status: "NOT_FOUND",
    meaning: "a plugin named in the config cannot be found (not installed, wrong path)",
  },
  plugin_import_failed: {
    status: "FAILED_PRECONDITION",
    meaning: "a plugin named in the config failed to import",
  },
  plugin_invalid: {
    status: "FAILED_PRECONDITION",
    meaning: "a plugin's manifest or a contract it registers is invalid",
  },
  plugin_api_version_mismatch: {
    status: "FAILED_PRECONDITION",
    meaning: "a plugin was built for another plugin API version than the running core's",
  },
  plugin_core_version_mismatch: {
    status: "FAILED_PRECONDITION",
    meaning: "the running core is outside a plugin's peerDependencies range for @racksmith/core",
  },
  plugin_duplicate: {
    status: "FAILED_PRECONDITION",
    meaning: "a plugin, or a name a plugin registers, is registered twice",
  },
  plugin_register_failed: {
    status: "FAILED_PRECONDITION",
    meaning: "a plugin's register function threw",
  },

  // ---- server: database ------------------------------------------------------------------------------------
  listen_address_in_use: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a listener's address (REST or gRPC) is taken by another process: stop it or choose another address",
  },
  database_unavailable: {
    status: "UNAVAILABLE",
    meaning: "the database cannot be reached or opened",
  },
  migration_failed: {
    status: "INTERNAL",
    meaning: "a database migration failed; nothing of it was applied",
  },
  database_not_migrated: {
    status: "FAILED_PRECONDITION",
    meaning: "the database schema is older than this code; run `racksmith db migrate`",
  },

  // ---- server: APIs ----------------------------------------------------------------------------------------
  invalid_request: {
    status: "INVALID_ARGUMENT",
    meaning:
      "a REST request fails its JSON schema or limits, cannot be decoded, or holds text the database cannot store (NUL, lone surrogate); `details` names the location and field",
  },
  request_too_large: {
    status: "RESOURCE_EXHAUSTED",
    meaning:
      "a request is larger than its limit: a REST body over the route's (HTTP 413), a gRPC message over its method's",
  },
  route_not_found: {
    status: "NOT_FOUND",
    meaning: "no REST route has this method and path",
  },

  // ---- server: inventory and credentials --------------------------------------------------------------------
  expected_machine_not_found: {
    status: "NOT_FOUND",
    meaning: "no expected machine has this BMC MAC",
  },
  expected_machine_exists: {
    status: "ALREADY_EXISTS",
    meaning: "an expected machine with this BMC MAC exists already",
  },
  invalid_expected_machine: {
    status: "INVALID_ARGUMENT",
    meaning: "an expected machine cannot be stored; `details.field` names the first bad field",
  },
  duplicate_bmc_mac: {
    status: "INVALID_ARGUMENT",
    meaning:
      "a row of an expected-machines batch repeats a BMC MAC of an earlier row (a row's error, never thrown)",
  },
  expected_machines_rejected: {
    status: "INVALID_ARGUMENT",
    meaning:
      "an expected-machines batch has bad rows and no acceptPartial: nothing was applied; `details.results` has every row",
  },
  expected_machines_file_invalid: {
    status: "INVALID_ARGUMENT",
    meaning:
      "an expected-machines file (CSV or JSON) cannot be read; the message names the line or the problem",
  },
  dhcp_pool_exhausted: {
    status: "RESOURCE_EXHAUSTED",
    meaning: "every address of the underlay DHCP pool is leased or reserved",
  },
  dhcp_contended: {
    status: "UNAVAILABLE",
    meaning:
      "a DHCP discovery lost every attempt to concurrent ones taking the address it chose; nothing was stored, try again",
  },
  credentials_key_missing: {
    status: "FAILED_PRECONDITION",
    meaning: "the key file the stored secrets are encrypted with is missing",
  },
  credentials_key_invalid: {
    status: "FAILED_PRECONDITION",
    meaning: "the credentials key file cannot be used (not a key of the right size, or a directory)",
  },
  credentials_key_exists: {
    status: "ALREADY_EXISTS",
    meaning: "the credentials key file exists already; a new key would make the stored secrets unreadable",
  },
  credentials_insecure_permissions: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a key file, secrets directory or secret file is accessible by group or others; the message has the chmod",
  },
  credential_corrupt: {
    status: "FAILED_PRECONDITION",
    meaning: "a secret file fails authentication: modified, truncated, or sealed with another key",
  },
  credential_read_only: {
    status: "FAILED_PRECONDITION",
    meaning: "the credential comes from a file named in the config: change that file instead",
  },
  credential_file_unreadable: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a secret file named in the config, or the credential store's directory, cannot be read or written",
  },

  // ---- server: site explorer -------------------------------------------------------------------------------
  endpoint_not_found: {
    status: "NOT_FOUND",
    meaning: "no BMC endpoint has this address (not leased, not an expected machine's static address)",
  },
  machine_not_found: {
    status: "NOT_FOUND",
    meaning: "no managed host or DPU has this id",
  },
  record_removed: {
    status: "NOT_FOUND",
    meaning: "the request wrote about a record (a machine, say) that was removed while it ran",
  },
  exploration_unreachable: {
    status: "UNAVAILABLE",
    meaning: "exploring a BMC failed: it cannot be reached (stored as last error `unreachable`)",
  },
  exploration_timeout: {
    status: "DEADLINE_EXCEEDED",
    meaning: "exploring a BMC failed: it ran past its deadline (stored as `timeout`)",
  },
  exploration_unauthorized: {
    status: "UNAUTHENTICATED",
    meaning: "exploring a BMC failed: it refused every credential tried (stored as `unauthorized`)",
  },
  exploration_missing_credentials: {
    status: "FAILED_PRECONDITION",
    meaning: "exploring a BMC failed: there is no credential to try (stored as `missing_credentials`)",
  },
  exploration_redfish_error: {
    status: "UNAVAILABLE",
    meaning: "exploring a BMC failed: it answered an HTTP error (stored as `redfish_error`)",
  },
  exploration_avoid_lockout: {
    status: "RESOURCE_EXHAUSTED",
    meaning:
      "exploring a BMC was skipped: another failed login could lock the account out (stored as `avoid_lockout`)",
  },
  exploration_malformed_response: {
    status: "UNAVAILABLE",
    meaning: "exploring a BMC failed: it answered a malformed body (stored as `malformed_response`)",
  },
  exploration_password_change_required: {
    status: "FAILED_PRECONDITION",
    meaning:
      "exploring a BMC failed: its account must change its password and this exploration may not rotate it (stored as `password_change_required`)",
  },
  exploration_rotation_failed: {
    status: "ABORTED",
    meaning: "exploring a BMC failed: rotating its password failed (stored as `rotation_failed`)",
  },
  exploration_internal: {
    status: "INTERNAL",
    meaning: "exploring a BMC failed for an unexpected reason (stored as `internal`)",
  },

  // ---- server: health --------------------------------------------------------------------------------------
  health_override_not_found: {
    status: "NOT_FOUND",
    meaning: "the machine has no health override from this source",
  },
  dpu_replace_override: {
    status: "INVALID_ARGUMENT",
    meaning: "a replace health override was asked for a DPU; it applies to a host only (or use mode merge)",
  },

  // ---- server: lifecycle, agents and instances ----------------------------------------------------------
  machine_not_identified: {
    status: "NOT_FOUND",
    meaning: "DiscoverMachine cannot tell which managed host or DPU the reporting hardware is",
  },
  dpu_not_found: {
    status: "NOT_FOUND",
    meaning: "a DPU agent named a machine that is no DPU of this site",
  },
  instance_not_found: {
    status: "NOT_FOUND",
    meaning: "no instance has this id",
  },
  host_not_ready: {
    status: "FAILED_PRECONDITION",
    meaning: "the host is not in the Ready lifecycle state",
  },
  allocation_blocked: {
    status: "FAILED_PRECONDITION",
    meaning: "the host has health alerts with PreventAllocations",
  },
  host_already_allocated: {
    status: "FAILED_PRECONDITION",
    meaning: "the host is allocated to an instance already",
  },
  no_host_available: {
    status: "FAILED_PRECONDITION",
    meaning: "no Ready, unallocated, unblocked host has the requested instance type",
  },
  instance_released: {
    status: "FAILED_PRECONDITION",
    meaning: "the instance is being released or is terminated: it cannot be changed any more",
  },
  config_version_mismatch: {
    status: "FAILED_PRECONDITION",
    meaning: "the instance's config is at another version than the one the update was made against",
  },

  // ---- server: tenant fabrics ------------------------------------------------------------------------------
  infiniband_not_configured: {
    status: "FAILED_PRECONDITION",
    meaning: "an InfiniBand tenant call while fabrics.infiniband is not configured",
  },
  ib_partition_not_found: {
    status: "NOT_FOUND",
    meaning: "no InfiniBand partition has this id",
  },
  ib_partition_in_use: {
    status: "FAILED_PRECONDITION",
    meaning: "the InfiniBand partition cannot be deleted while a live instance uses it",
  },
  ib_partition_limit: {
    status: "INVALID_ARGUMENT",
    meaning: "the tenant has fabrics.infiniband.maxPartitionsPerTenant InfiniBand partitions already",
  },
  pkey_pool_exhausted: {
    status: "RESOURCE_EXHAUSTED",
    meaning: "no free pkey is left in the configured ranges",
  },
  pkey_taken: {
    status: "ALREADY_EXISTS",
    meaning: "the requested pkey is used by another partition",
  },
  nvlink_not_configured: {
    status: "FAILED_PRECONDITION",
    meaning: "an NVLink tenant call while fabrics.nvlink is not configured",
  },
  nvlink_partition_not_found: {
    status: "NOT_FOUND",
    meaning: "no NVLink logical partition has this id",
  },
  nvlink_partition_in_use: {
    status: "FAILED_PRECONDITION",
    meaning: "the NVLink logical partition cannot be deleted while a live instance puts GPUs in it",
  },

  // ---- server: SKU (BOM) validation ------------------------------------------------------------------------
  sku_rules_not_loaded: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a SKU call while no loaded plugin registers SKU rules (add @racksmith/validation-sku to plugins)",
  },
  sku_not_found: {
    status: "NOT_FOUND",
    meaning: "no SKU has this id",
  },
  sku_exists: {
    status: "ALREADY_EXISTS",
    meaning: "a SKU with this id exists already; delete it first or choose another id",
  },
  sku_in_use: {
    status: "FAILED_PRECONDITION",
    meaning: "the SKU cannot be deleted while hosts are assigned to it; `hostIds` lists them",
  },
  sku_verify_not_allowed: {
    status: "FAILED_PRECONDITION",
    meaning:
      "SKU verification was asked of a host that is neither Ready nor in BOM validation (an assigned host, say)",
  },
  inventory_not_reported: {
    status: "FAILED_PRECONDITION",
    meaning: "the host agent has not reported the host's inventory yet, so no SKU can be generated from it",
  },

  // ---- server: machine validation (host tests) ---------------------------------------------------------------
  host_tests_not_loaded: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a machine validation call while no loaded plugin registers host test rules (add @racksmith/validation-host-tests to plugins)",
  },
  validation_test_not_found: {
    status: "NOT_FOUND",
    meaning: "no machine validation test has this id",
  },
  validation_test_exists: {
    status: "ALREADY_EXISTS",
    meaning: "a machine validation test with this id exists already",
  },
  validation_test_read_only: {
    status: "FAILED_PRECONDITION",
    meaning: "a built-in machine validation test cannot be changed or verified (only enabled or disabled)",
  },
  validation_run_not_allowed: {
    status: "FAILED_PRECONDITION",
    meaning:
      "an on-demand validation run was asked of a host that is not Ready or is assigned to an instance",
  },
  validation_run_not_found: {
    status: "NOT_FOUND",
    meaning: "no machine validation run of this host has this id",
  },

  // ---- server: authentication and authorization ----------------------------------------------------------
  unauthenticated: {
    status: "UNAUTHENTICATED",
    meaning:
      "a call without a valid bearer token (none, malformed, expired, revoked, untrusted issuer or audience, bad signature); the message says which",
  },
  permission_denied: {
    status: "PERMISSION_DENIED",
    meaning:
      "the caller's role may not make this call, or an agent called about another machine; the message names the role and the operation",
  },
  no_live_instance: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a workload identity was asked for on a machine that runs no tenant instance: it names the tenant",
  },
  tenant_not_found: {
    status: "NOT_FOUND",
    meaning:
      "a tenant caller named another tenant org (to allocate or create for it): to a tenant, other orgs do not exist",
  },
  token_not_found: {
    status: "NOT_FOUND",
    meaning: "no service-issued token has this id",
  },

  // ---- cli ---------------------------------------------------------------------------------------------------
  service_unreachable: {
    status: "UNAVAILABLE",
    meaning: "the CLI cannot reach the Racksmith service (--server, RACKSMITH_SERVER)",
  },

  // ---- testkit: mockup server and recorder ----------------------------------------------------------------
  mockup_root_not_found: {
    status: "NOT_FOUND",
    meaning: "the folder given as a mockup holds no Redfish service root in any known layout",
  },
  mockup_fault_invalid: {
    status: "INVALID_ARGUMENT",
    meaning: "a mockup fault rule (in code or a fault file) is invalid; `field` names the bad field",
  },
  mockup_server_start_failed: {
    status: "UNAVAILABLE",
    meaning: "the mockup server cannot listen (port in use, bad host, certificate generation failed)",
  },
  recorder_output_not_empty: {
    status: "FAILED_PRECONDITION",
    meaning: "the recorder's output folder holds files and overwrite was not asked for; nothing was written",
  },
  recorder_service_root_unreadable: {
    status: "UNAVAILABLE",
    meaning: "the recorder cannot read the BMC's service root, so there is nothing to record",
  },
  recorder_authentication_failed: {
    status: "UNAUTHENTICATED",
    meaning: "the BMC refused the recorder's credentials; the partial recording is incomplete",
  },

  // ---- simulator: virtual BMC fleet and simulated agents -------------------------------------------------
  fleet_scenario_invalid: {
    status: "INVALID_ARGUMENT",
    meaning: "a fleet scenario (file or object) is invalid; the message names every bad key",
  },
  fleet_mockup_unavailable: {
    status: "NOT_FOUND",
    meaning: "a mockup a fleet scenario names cannot be found or used",
  },
  fleet_capacity_exceeded: {
    status: "RESOURCE_EXHAUSTED",
    meaning: "the fleet ran out of unique values (MACs per vendor OUI, addresses in the pool)",
  },
  fleet_start_failed: {
    status: "UNAVAILABLE",
    meaning: "the fleet's listener cannot start",
  },
  fleet_bmc_not_found: {
    status: "NOT_FOUND",
    meaning: "no virtual BMC of the fleet has this MAC",
  },
  simulated_agent_not_found: {
    status: "NOT_FOUND",
    meaning: "a fault control named a virtual BMC that has no simulated agent of the wanted kind",
  },
  simulated_site_mismatch: {
    status: "FAILED_PRECONDITION",
    meaning:
      "a simulated site's folder or service holds another site (other hosts or seed); the message says what differs",
  },
} as const satisfies Readonly<Record<string, ErrorCodeEntry>>;

/** A stable error code: a key of `ERROR_CODES` (a typo fails typecheck). */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The status the catalogue gives a code. */
export type ErrorStatusOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]["status"];
