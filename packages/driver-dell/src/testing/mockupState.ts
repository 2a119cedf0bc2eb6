import type { JsonObject, JsonValue, MockupService } from "@racksmith/testkit";

export const SYSTEM_LOCKDOWN = "Lockdown.1.SystemLockdown";
export const BIOS_JOB = "BIOSConfiguration";
const QUEUED = new Set([
  "New",
  "Scheduling",
  "Scheduled",
  "Waiting",
  "ReadyForExecution",
  "Running",
  "Downloading",
]);

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function linkOf(value: JsonValue | undefined): string | undefined {
  const id = isObject(value) ? value["@odata.id"] : undefined;
  return typeof id === "string" ? id : undefined;
}

/** `/redfish/v1/Systems/S/Bios/Settings/` → `/redfish/v1/Systems/S/Bios/Settings`. */
export function trimPath(path: string): string {
  return path.replace(/\/+$/, "");
}

function firstLink(resource: JsonObject | undefined, ...keys: string[]): string | undefined {
  let value: JsonValue | undefined = resource;
  for (const key of keys) value = isObject(value) ? value[key] : undefined;
  return Array.isArray(value) ? linkOf(value[0]) : undefined;
}

/** The manager of a system (its `Links.ManagedBy`), else the iDRAC's usual id. */
export async function managerOfSystem(service: MockupService, systemPath: string): Promise<string> {
  return (
    firstLink(await service.read(systemPath), "Links", "ManagedBy") ?? "/redfish/v1/Managers/iDRAC.Embedded.1"
  );
}

/** The system a manager manages (its `Links.ManagerForServers`), else the iDRAC's usual id. */
export async function systemOfManager(service: MockupService, managerPath: string): Promise<string> {
  return (
    firstLink(await service.read(managerPath), "Links", "ManagerForServers") ??
    "/redfish/v1/Systems/System.Embedded.1"
  );
}

export function managerAttributePaths(managerPath: string): string[] {
  const id = managerPath.slice(managerPath.lastIndexOf("/") + 1);
  return [`${managerPath}/Attributes`, `${managerPath}/Oem/Dell/DellAttributes/${id}`];
}

/** Manager attributes as the iDRAC holds them (both resources show the same table). */
export async function managerAttributes(service: MockupService, managerPath: string): Promise<JsonObject> {
  for (const path of managerAttributePaths(managerPath).reverse()) {
    const attributes = (await service.read(path))?.Attributes;
    if (isObject(attributes)) return attributes;
  }
  return {};
}

export async function isLockedDown(service: MockupService, managerPath: string): Promise<boolean> {
  return (await managerAttributes(service, managerPath))[SYSTEM_LOCKDOWN] === "Enabled";
}

export function isQueued(job: JsonObject): boolean {
  return QUEUED.has(String(job.JobState));
}

/** Members of a collection, read one by one. */
export async function readMembers(service: MockupService, collectionPath: string): Promise<JsonObject[]> {
  const members = (await service.read(collectionPath))?.Members;
  if (!Array.isArray(members)) return [];
  const resources = await Promise.all(
    members.map(async (member) => {
      const path = linkOf(member);
      return path ? service.read(path) : undefined;
    }),
  );
  return resources.filter((resource): resource is JsonObject => resource !== undefined);
}
