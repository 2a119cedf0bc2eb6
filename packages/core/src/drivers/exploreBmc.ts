import type { Logger } from "../logging/index.js";
import { silentLogger } from "../logging/index.js";
import { probeService, type RedfishClient, type ServiceProbe } from "../redfish/index.js";
import type { BmcDriver, BmcDriverDefinition } from "./bmcDriver.js";
import type { ExplorationReport } from "./explorationReport.js";
import { readHardwareIdentity } from "./hardwareIdentity.js";
import { type DriverSelection, selectDriver, wantsHardwareIdentity } from "./selection.js";

export interface ConnectOptions {
  drivers: readonly BmcDriverDefinition[];
  fallback: BmcDriverDefinition;
  /** Driver name the operator pinned for this BMC. */
  pinned?: string;
  logger?: Logger;
  settings?: (driver: BmcDriverDefinition) => Readonly<Record<string, unknown>> | undefined;
  /** The BMC's service description as probed already with this client's credentials: not read again. */
  probe?: ServiceProbe;
}

export interface ConnectedBmc {
  driver: BmcDriver;
  selection: DriverSelection;
}

/**
 * Probes a BMC, selects its driver and creates it. When a candidate refines detection, the first system's and
 * manager's make and model are read once for all of them.
 */
export async function connectBmc(client: RedfishClient, options: ConnectOptions): Promise<ConnectedBmc> {
  const probe = options.probe ?? (await probeService(client));
  const pinned = options.pinned ? { pinned: options.pinned } : {};
  const hardware = wantsHardwareIdentity(options.drivers, pinned)
    ? await readHardwareIdentity(client, probe)
    : undefined;
  const selection = selectDriver(options.drivers, probe, {
    fallback: options.fallback,
    ...pinned,
    ...(hardware ? { hardware } : {}),
  });
  const settings = options.settings?.(selection.driver);
  const driver = selection.driver.create(client, {
    logger: options.logger ?? silentLogger,
    probe,
    ...(settings ? { settings } : {}),
  });
  return { driver, selection };
}

/** Probe, select, explore: the report records the driver used and every candidate's score. */
export async function exploreBmc(client: RedfishClient, options: ConnectOptions): Promise<ExplorationReport> {
  const { driver, selection } = await connectBmc(client, options);
  const report = await driver.explore();
  return {
    ...report,
    driver: { name: driver.name, pinned: selection.pinned },
    candidates: selection.candidates,
  };
}
