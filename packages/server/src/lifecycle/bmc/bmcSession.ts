import type { BmcDriver, BmcDriverDefinition, Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { RedfishClient } from "@racksmith/core/redfish";
import type { Kysely } from "kysely";
import type { RacksmithDatabase } from "../../db/index.js";
import { type BmcConnector, credentialCandidates, type MachineRow } from "../../explorer/index.js";
import type { CredentialStore } from "../../inventory/index.js";
import { createDriverWithCachedProbe, type ServiceProbeCache } from "./serviceProbeCache.js";

/** The driver operations the lifecycle uses (a fake implements just these). */
export type LifecycleBmc = Pick<
  BmcDriver,
  | "power"
  | "powerState"
  | "bootOnce"
  | "bootFirst"
  | "setBootOrderDpuFirst"
  | "isBootOrderDpuFirst"
  | "machineSetup"
  | "machineSetupStatus"
  | "setLockdown"
  | "lockdownStatus"
  | "jobStatus"
  | "enableRshim"
  | "secureBootStatus"
  | "setSecureBoot"
>;

/** BMC drivers for one handler run: made on first use, closed when the run ends. */
export interface BmcSession {
  of(machine: MachineRow): Promise<LifecycleBmc>;
  close(): Promise<void>;
}

/** Opens a BMC session per handler run; `signal` aborts every request of it. */
export type BmcAccess = (signal: AbortSignal) => BmcSession;

export interface BmcAccessOptions {
  database: Kysely<RacksmithDatabase>;
  connector: BmcConnector;
  credentials: CredentialStore;
  drivers: () => readonly BmcDriverDefinition[];
  fallback: BmcDriverDefinition;
  driverSettings: (definition: BmcDriverDefinition) => Readonly<Record<string, unknown>> | undefined;
  logger: Logger;
  /** Keeps each BMC's service description between sessions (one cache for the service's monitor and lifecycle). */
  probes?: ServiceProbeCache;
  /**
   * False: a session's BMC connections close with it (the monitor's: it is back a minute later, and sockets
   * kept for thousands of BMCs in between cost far more memory than reconnecting costs time). Default true.
   */
  keepConnections?: boolean;
}

/**
 * Reaches a machine's BMC the way the site explorer did: with its stored credentials and the driver the
 * explorer selected for it (recorded with its report), so a handler never probes again.
 */
export function createBmcAccess(options: BmcAccessOptions): BmcAccess {
  return (signal) => {
    const clients: RedfishClient[] = [];
    const opened = new Map<string, Promise<LifecycleBmc>>();
    const open = async (machine: MachineRow): Promise<LifecycleBmc> => {
      const [driverName, candidates] = await Promise.all([
        explorerDriver(options, machine.bmc_address),
        credentialCandidates(options.credentials, {
          mac: machine.bmc_mac,
          vendorKeys: machine.vendor ? [machine.vendor] : [],
        }),
      ]);
      const credentials = candidates[0]?.credentials;
      if (!credentials) {
        throw new InvalidArgumentError(
          `no credentials are stored for the BMC of ${machine.id} (${machine.bmc_mac})`,
        );
      }
      const definition = options.drivers().find((d) => d.name === driverName) ?? options.fallback;
      const client = options.connector(machine.bmc_address, credentials, {
        signal,
        ...(options.keepConnections === false ? { keepConnections: false } : {}),
      });
      clients.push(client);
      const settings = options.driverSettings(definition);
      const context = { logger: options.logger, ...(settings ? { settings } : {}) };
      return options.probes
        ? createDriverWithCachedProbe(definition, client, context, options.probes, machine.bmc_address)
        : definition.create(client, context);
    };
    return {
      of(machine) {
        let driver = opened.get(machine.id);
        if (!driver) {
          driver = open(machine);
          opened.set(machine.id, driver);
        }
        return driver;
      },
      async close() {
        await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      },
    };
  };
}

/** The driver the explorer recorded for a BMC (kept with its description when there is a cache). */
async function explorerDriver(options: BmcAccessOptions, address: string): Promise<string | undefined> {
  const cached = options.probes?.driverOf(address);
  if (cached !== undefined) return cached;
  const row = await options.database
    .selectFrom("explored_endpoints")
    .select(["driver"])
    .where("address", "=", address)
    .executeTakeFirst();
  // None recorded yet (the fallback serves) is not kept: the explorer's choice is read as soon as it is made.
  if (row?.driver) options.probes?.setDriver(address, row.driver);
  return row?.driver ?? undefined;
}
