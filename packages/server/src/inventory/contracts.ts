/**
 * The inventory contracts the site explorer and the fleet simulator build on (issue 5). The inventory
 * feature implements them; the explorer only uses these types.
 */

/** How the host's BlueField cards are used: DPUs paired with the host, plain NICs, or none expected. */
export type DpuMode = "dpu" | "nic" | "no-dpu";

/** An operator's statement that a BMC belongs to a machine Racksmith should manage (JSON/CSV import row). */
export interface ExpectedMachineInput {
  /** BMC MAC in any common notation; stored normalised (`AA:BB:CC:DD:EE:FF`). */
  bmcMac: string;
  /** Static BMC address (IP or host, optional port) when DHCP does not hand one out. */
  bmcAddress?: string;
  /** Factory credentials of this BMC (the password goes to the credential store, never to the database). */
  factoryUsername?: string;
  factoryPassword?: string;
  /** Chassis / system serial the explorer must find on this BMC (trimmed). */
  chassisSerial: string;
  /** DPU serials to pair with when the host's PCIe inventory does not show them. */
  fallbackDpuSerials?: string[];
  dpuMode?: DpuMode;
  /** Driver name to use instead of detection. */
  driver?: string;
  labels?: Record<string, string>;
  skuId?: string;
}

/** The fields of an expected machine as written, in their documented order (also the CSV columns). */
export const EXPECTED_MACHINE_FIELDS = [
  "bmcMac",
  "bmcAddress",
  "factoryUsername",
  "factoryPassword",
  "chassisSerial",
  "fallbackDpuSerials",
  "dpuMode",
  "driver",
  "labels",
  "skuId",
] as const satisfies ReadonlyArray<keyof ExpectedMachineInput>;

/** An expected machine as stored and shown (no password). */
export interface ExpectedMachine {
  bmcMac: string;
  bmcAddress: string | null;
  factoryUsername: string | null;
  hasFactoryPassword: boolean;
  chassisSerial: string;
  fallbackDpuSerials: string[];
  dpuMode: DpuMode;
  driver: string | null;
  labels: Record<string, string>;
  skuId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One row of a bulk add/replace: what happened to it (a bad row never half-applies a bulk request). */
export interface ExpectedMachineRowResult {
  index: number;
  bmcMac: string;
  ok: boolean;
  error?: { code: string; message: string };
}

/** A DHCP discovery relayed to Racksmith (from a DHCP relay, or a test feeding BMC addresses). */
export interface DhcpDiscovery {
  mac: string;
  vendorClass?: string;
  relay?: string;
}

export interface DhcpLease {
  mac: string;
  address: string;
  vendorClass: string | null;
  relay: string | null;
  /** True when the address came from an expected machine's static address rather than the pool. */
  static: boolean;
  updatedAt: string;
}

/**
 * NOTIFY topic (channel: `channelName(BMC_ENDPOINTS_CHANGED_TOPIC, schema)` from the db module) the inventory
 * signals when `bmcEndpoints()` gained a BMC or a BMC's address changed: a MAC's first DHCP lease or a new
 * address for it, or an expected machine's new static `bmcAddress`. Sent in the writing transaction, so
 * listeners hear it once that commits (never for a rolled-back write). The payload, informational only, is
 * the BMC MAC when one BMC changed, else `*`.
 */
export const BMC_ENDPOINTS_CHANGED_TOPIC = "bmc_endpoints_changed";

/** A BMC the explorer should look at: every DHCP lease and every static expected-machine address. */
export interface BmcEndpoint {
  address: string;
  mac: string;
  /** When the inventory first saw this BMC (its first lease or its expected machine); not served by the APIs. */
  firstSeenAt?: Date;
}

export interface BmcCredentials {
  username: string;
  password: string;
}

/** What a credential is for. Per-BMC entries are keyed by the BMC MAC. */
export type CredentialKey =
  | { kind: "site-bmc-root" }
  | { kind: "factory-default"; vendor: string }
  | { kind: "bmc"; mac: string }
  /** A password change the explorer is about to make (written before, removed after: crash-safe rotation). */
  | { kind: "bmc-rotation"; mac: string }
  /** The factory login of one expected machine (written by the inventory from `factoryPassword`). */
  | { kind: "bmc-factory"; mac: string };

export type CredentialKind = CredentialKey["kind"];

/**
 * Where BMC secrets live. Values never reach logs, errors or exploration reports. Implementations: the
 * file-backed, encrypted store of the inventory feature (and in-memory ones in tests).
 */
export interface CredentialStore {
  get(key: CredentialKey): Promise<BmcCredentials | undefined>;
  set(key: CredentialKey, value: BmcCredentials): Promise<void>;
  delete(key: CredentialKey): Promise<void>;
  /** Keys present (never values), for `racksmith credentials list`. */
  list(): Promise<CredentialKey[]>;
}

/** Read access the explorer needs to the inventory. */
export interface InventoryReader {
  expectedMachine(bmcMac: string): Promise<ExpectedMachine | undefined>;
  expectedMachines(): Promise<ExpectedMachine[]>;
  bmcEndpoints(): Promise<BmcEndpoint[]>;
  credentials: CredentialStore;
}

/** How a bulk request treats the stored set: add to it, or make it equal to the request's machines. */
export type ExpectedMachinesMode = "add" | "replace-all";

/** The answer to a bulk add/replace that applied (everything, or with `acceptPartial` the good rows). */
export interface ApplyExpectedMachinesResult {
  applied: number;
  /** Stored machines a replace-all removed (0 for add). */
  deleted: number;
  results: ExpectedMachineRowResult[];
}

/** DHCP leases and the expected machines' writes, next to the explorer's reads (`openInventory`). */
export interface Inventory extends InventoryReader {
  addExpectedMachine(input: ExpectedMachineInput): Promise<ExpectedMachine>;
  /** Replaces every field; an omitted `factoryPassword` keeps the stored one (passwords are write-only). */
  updateExpectedMachine(bmcMac: string, input: ExpectedMachineInput): Promise<ExpectedMachine>;
  deleteExpectedMachine(bmcMac: string): Promise<void>;
  /** All or nothing (`expected_machines_rejected` with every row's result) unless `acceptPartial`. */
  applyExpectedMachines(
    machines: readonly unknown[],
    options: { mode: ExpectedMachinesMode; acceptPartial?: boolean },
  ): Promise<ApplyExpectedMachinesResult>;
  discoverDhcp(discovery: DhcpDiscovery): Promise<DhcpLease>;
  dhcpLeases(): Promise<DhcpLease[]>;
}
