import type {
  EndpointKind,
  ExploredChassis,
  ExploredPcieDevice,
  ExploredSystem,
} from "../drivers/explorationReport.js";
import type {
  Chassis,
  ComputerSystem,
  Diagnostic,
  PCIeDevice,
  RedfishClient,
  RedfishObject,
  ResourceKind,
  ServiceRoot,
} from "../redfish/index.js";
import { classifyEndpoint } from "./endpointKind.js";
import { hostSerial } from "./hostSerial.js";
import { text, toPcieDeviceInfo } from "./mappers.js";
import { linkIds } from "./odataLinks.js";
import { type PcieChassisSource, type PcieSystemSource, planPcieDevices } from "./pcieDevices.js";

/** The exploration's reader: failures become diagnostics, and what it read it keeps. */
export interface ShapeReader {
  resource<T extends RedfishObject>(kind: ResourceKind, path: string): Promise<T | undefined>;
  attempt<T>(path: string, read: () => Promise<T>): Promise<T | undefined>;
  /** A resource `resource()` already read, by the path it was read at. */
  cached(path: string): RedfishObject | undefined;
  /** A collection's member ids; `readingThem` asks for the members too when the BMC can expand. */
  listMembers(path: string, readingThem: boolean): Promise<string[]>;
}

export interface HardwareShapesInput {
  reader: ShapeReader;
  client: RedfishClient;
  root: ServiceRoot;
  /** The report's diagnostics, to correct the empty-serial error once a chassis serial stands in. */
  diagnostics: Diagnostic[];
  /** Every listed system, in collection order: its id in `Systems`, request path and what was explored. */
  systems: ReadonlyArray<{ id: string; path: string; explored: ExploredSystem | undefined }>;
  chassis: ReadonlyArray<{ path: string; explored: ExploredChassis | undefined }>;
  primarySystemId: string | undefined;
  /** The BMC lists no computer system (read switches and power shelves to tell what it is). */
  listsNoSystem: boolean;
}

export interface HardwareShapes {
  kind: EndpointKind;
  reason: string;
  /** The primary system first, each with its serial (a chassis' when its own is empty) and PCIe devices. */
  systems: ExploredSystem[];
}

/**
 * What differs between a 1U server and the rest of a fleet, read from what the exploration already has: the
 * endpoint's kind (`classifyEndpoint`), a host serial from its chassis when the system's is empty
 * (`hostSerial`), and every PCIe device once under the system it belongs to (`planPcieDevices`; hosts only).
 */
export async function readHardwareShapes(input: HardwareShapesInput): Promise<HardwareShapes> {
  const { reader } = input;
  const systems = input.systems
    .filter((s): s is { id: string; path: string; explored: ExploredSystem } => s.explored !== undefined)
    .map((s) => ({ ...s, raw: reader.cached(s.path) as ComputerSystem | undefined }))
    .sort((a, b) => Number(b.id === input.primarySystemId) - Number(a.id === input.primarySystemId));
  const chassis = input.chassis
    .filter((c): c is { path: string; explored: ExploredChassis } => c.explored !== undefined)
    .map((c) => ({ ...c, raw: reader.cached(c.path) as Chassis | undefined }));

  const [fabricSwitches, powerShelves] = input.listsNoSystem
    ? await Promise.all([countFabricSwitches(input), countPowerShelves(input)])
    : [undefined, undefined];
  const { kind, reason } = classifyEndpoint({
    systems: systems.map((s) => ({ id: s.explored.id, name: text(s.raw?.Name) })),
    chassis: chassis.map((c) => ({ id: c.explored.id, chassisType: c.explored.chassisType })),
    ...(fabricSwitches !== undefined ? { fabricSwitches } : {}),
    ...(powerShelves !== undefined ? { powerShelves } : {}),
  });

  const chassisFacts = chassis.map((c) => ({
    path: odataIdOf(c.raw, c.path),
    id: c.explored.id,
    serialNumber: c.explored.serialNumber,
    systemLinks: linkIds(linksOf(c.raw).ComputerSystems),
  }));
  const devices =
    kind === "host"
      ? await readPcieDevices(input, systems, chassis)
      : new Map<string, ExploredPcieDevice[]>();
  return {
    kind,
    reason,
    systems: systems.map(({ explored, raw, path, id }) => {
      const serial = hostSerial(
        {
          path: odataIdOf(raw, path),
          id: explored.id,
          serialNumber: explored.serialNumber,
          chassisLinks: linkIds(raw?.Links?.Chassis),
        },
        chassisFacts,
      );
      if (serial?.source)
        explainChassisSerial(input.diagnostics, path, serial.source.chassisId, serial.source.via);
      const systemType = text(raw?.SystemType);
      return {
        ...explored,
        serialNumber: serial?.serialNumber,
        ...(serial?.source ? { serialNumberSource: serial.source } : {}),
        primary: id === input.primarySystemId,
        ...(systemType ? { systemType } : {}),
        pcieDevices: devices.get(explored.id) ?? [],
      };
    }),
  };
}

/** The empty-serial error becomes a note: the report does carry a serial, the chassis'. */
function explainChassisSerial(diagnostics: Diagnostic[], path: string, chassisId: string, via: string): void {
  const note: Diagnostic = {
    severity: "info",
    path,
    field: "SerialNumber",
    message: `SerialNumber is empty; the system reports chassis ${chassisId}'s serial (tied by ${via})`,
  };
  const at = diagnostics.findIndex((d) => d.path === path && d.field === "SerialNumber");
  if (at < 0) {
    diagnostics.push(note);
    return;
  }
  diagnostics.splice(at, 1, note);
  for (let i = diagnostics.length - 1; i > at; i--) {
    const d = diagnostics[i] as Diagnostic;
    if (d.path === path && d.field === "SerialNumber") diagnostics.splice(i, 1);
  }
}

async function readPcieDevices(
  input: HardwareShapesInput,
  systems: ReadonlyArray<{ path: string; explored: ExploredSystem; raw: ComputerSystem | undefined }>,
  chassis: ReadonlyArray<{ path: string; explored: ExploredChassis; raw: Chassis | undefined }>,
): Promise<Map<string, ExploredPcieDevice[]>> {
  const { reader } = input;
  const [systemSources, chassisSources] = await Promise.all([
    Promise.all(
      systems.map(
        async ({ path, explored, raw }): Promise<PcieSystemSource> => ({
          id: explored.id,
          path: odataIdOf(raw, path),
          deviceLinks: Array.isArray(raw?.PCIeDevices)
            ? linkIds(raw.PCIeDevices)
            : await members(input, raw?.PCIeDevices?.["@odata.id"], true),
          chassisLinks: linkIds(raw?.Links?.Chassis),
        }),
      ),
    ),
    Promise.all(
      chassis.map(
        async ({ path, explored, raw }): Promise<PcieChassisSource> => ({
          id: explored.id,
          path: odataIdOf(raw, path),
          devicePaths: await members(input, raw?.PCIeDevices?.["@odata.id"], true),
          systemLinks: linkIds(linksOf(raw).ComputerSystems),
        }),
      ),
    ),
  ]);
  const planned = planPcieDevices(systemSources, chassisSources);
  const read = await Promise.all(
    planned.map(async (device) => {
      const resource = await reader.resource<PCIeDevice>("PCIeDevice", device.path);
      return resource
        ? { ...toPcieDeviceInfo(resource), systemId: device.systemId, chassisId: device.chassisId }
        : undefined;
    }),
  );
  const bySystem = new Map<string, ExploredPcieDevice[]>();
  for (const device of read) {
    if (!device) continue;
    bySystem.set(device.systemId, [...(bySystem.get(device.systemId) ?? []), device]);
  }
  return bySystem;
}

async function countFabricSwitches(input: HardwareShapesInput): Promise<number> {
  const fabrics = await members(input, linkOf(input.root.Fabrics));
  const counts = await Promise.all(
    fabrics.map(async (path) => {
      const fabric = await input.reader.attempt(path, () => input.client.get(path));
      return (await members(input, linkOf(fabric?.Switches))).length;
    }),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

async function countPowerShelves(input: HardwareShapesInput): Promise<number> {
  const path = linkOf(input.root.PowerEquipment);
  if (!path) return 0;
  const equipment = await input.reader.attempt(path, () => input.client.get(path));
  return (await members(input, linkOf(equipment?.PowerShelves))).length;
}

/** Member ids of a collection; `readingThem` when the caller reads the members next (they may come expanded). */
async function members(
  input: HardwareShapesInput,
  path: string | undefined,
  readingThem = false,
): Promise<string[]> {
  if (!path) return [];
  return (await input.reader.attempt(path, () => input.reader.listMembers(path, readingThem))) ?? [];
}

function linkOf(value: unknown): string | undefined {
  const id = (value as { "@odata.id"?: unknown } | null | undefined)?.["@odata.id"];
  return typeof id === "string" && id !== "" ? id : undefined;
}

function linksOf(resource: RedfishObject | undefined): Record<string, unknown> {
  const links = resource?.Links;
  return links && typeof links === "object" ? (links as Record<string, unknown>) : {};
}

function odataIdOf(resource: RedfishObject | undefined, requestPath: string): string {
  const id = resource?.["@odata.id"];
  return typeof id === "string" && id !== "" ? id : requestPath;
}
