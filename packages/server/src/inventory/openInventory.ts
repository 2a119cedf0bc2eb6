import { InvalidArgumentError, type Logger, silentLogger } from "@racksmith/core";
import type { LoadedConfig } from "../config/index.js";
import type { Database } from "../db/index.js";
import { resolveInventoryConfig } from "./configSchema.js";
import type {
  ApplyExpectedMachinesResult,
  BmcEndpoint,
  CredentialStore,
  DhcpDiscovery,
  DhcpLease,
  ExpectedMachine,
  ExpectedMachineInput,
  ExpectedMachinesMode,
  Inventory,
} from "./contracts.js";
import { type CredentialStoreStatus, openSiteCredentialStore } from "./credentials/index.js";
import { DhcpLeaseStore } from "./dhcp/index.js";
import { ExpectedMachineStore } from "./expectedMachines/index.js";
import { parseIpv4Pool } from "./ipv4.js";

/** A credential store that may say whether it can be used (the configured one does). */
export type InventoryCredentialStore = CredentialStore & { status?(): Promise<CredentialStoreStatus> };

export interface OpenInventoryOptions {
  database: Database;
  config: LoadedConfig;
  logger?: Logger;
  /** Use this store instead of the one the config describes (tests, tools). */
  credentials?: InventoryCredentialStore;
}

/** The inventory over one database and credential store; what the inventory and explorer features share. */
export class InventoryService implements Inventory {
  constructor(
    readonly credentials: InventoryCredentialStore,
    private readonly machines: ExpectedMachineStore,
    private readonly leases: DhcpLeaseStore,
    private readonly logger: Logger,
  ) {}

  expectedMachine(bmcMac: string): Promise<ExpectedMachine | undefined> {
    return this.machines.get(bmcMac);
  }

  expectedMachines(): Promise<ExpectedMachine[]> {
    return this.machines.list();
  }

  bmcEndpoints(): Promise<BmcEndpoint[]> {
    return this.leases.bmcEndpoints();
  }

  addExpectedMachine(input: ExpectedMachineInput): Promise<ExpectedMachine> {
    return this.machines.add(input);
  }

  updateExpectedMachine(bmcMac: string, input: ExpectedMachineInput): Promise<ExpectedMachine> {
    return this.machines.update(bmcMac, input);
  }

  deleteExpectedMachine(bmcMac: string): Promise<void> {
    return this.machines.delete(bmcMac);
  }

  async applyExpectedMachines(
    machines: readonly unknown[],
    options: { mode: ExpectedMachinesMode; acceptPartial?: boolean },
  ): Promise<ApplyExpectedMachinesResult> {
    const result = await this.machines.apply(machines, options);
    this.logger.info(
      {
        mode: options.mode,
        applied: result.applied,
        deleted: result.deleted,
        rejected: result.results.length - result.applied,
      },
      "expected machines applied",
    );
    return result;
  }

  discoverDhcp(discovery: DhcpDiscovery): Promise<DhcpLease> {
    return this.leases.discover(discovery);
  }

  dhcpLeases(): Promise<DhcpLease[]> {
    return this.leases.list();
  }

  /** Whether the credential store can be used (for /readyz). */
  async credentialStatus(): Promise<CredentialStoreStatus> {
    return this.credentials.status?.() ?? { ok: true, detail: "credential store supplied by the caller" };
  }
}

/**
 * Opens the inventory as the config describes it: the underlay pool, and the credential store (encrypted
 * files plus secrets mounted as files, paths relative to the config file). Opening touches no file; a store
 * that cannot be used shows in `credentialStatus()` and fails the calls that need it.
 */
export async function openInventory(options: OpenInventoryOptions): Promise<InventoryService> {
  const config = resolveInventoryConfig(options.config.config.inventory);
  const pool = parseIpv4Pool(config.dhcp.underlayPool);
  if ("problem" in pool) throw new InvalidArgumentError(`inventory.dhcp.underlayPool: ${pool.problem}`);
  const credentials =
    options.credentials ?? openSiteCredentialStore(config.credentials, options.config.baseDir);
  return new InventoryService(
    credentials,
    new ExpectedMachineStore(options.database, credentials),
    new DhcpLeaseStore(options.database, pool),
    options.logger ?? silentLogger,
  );
}
