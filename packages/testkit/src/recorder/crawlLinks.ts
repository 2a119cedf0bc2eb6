import type { RedfishObject } from "@racksmith/core/redfish";
import { normalizePath, rawSegments } from "../mockup/resourcePath.js";

export interface CrawlLimits {
  /** Members followed per collection. */
  readonly maxMembers: number;
  /** Members followed per log-entries collection. */
  readonly maxLogEntries: number;
}

const SESSION_MEMBER = /^\/redfish\/v1\/sessionservice\/sessions\/[^/]+/i;

/**
 * The resource paths a body links to: every `@odata.id` anywhere (nested objects, arrays, `Links`, `Oem`) under
 * `/redfish/v1`, without fragments (JSON pointers) or queries, the body's own id excepted. A collection's
 * `Members` are followed only up to the limit; session members are never followed (they hold live tokens).
 */
export function linksToFollow(path: string, body: RedfishObject, limits: CrawlLimits): string[] {
  // Decoded path → the link as first spelled (kept encoded: a decoded `%2F` would change the path).
  const found = new Map<string, string>();
  const members = Array.isArray(body.Members) ? body.Members : undefined;
  const limit = isLogEntries(path, body) ? limits.maxLogEntries : limits.maxMembers;
  for (const [key, value] of Object.entries(body)) {
    if (key === "@odata.id") continue;
    collect(key === "Members" && members ? members.slice(0, limit) : value, found);
  }
  found.delete(normalizePath(path));
  return [...found].filter(([key]) => !SESSION_MEMBER.test(key)).map(([, link]) => link);
}

function collect(value: unknown, found: Map<string, string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, found);
    return;
  }
  if (!value || typeof value !== "object") return;
  for (const [key, child] of Object.entries(value)) {
    if (key === "@odata.id" && typeof child === "string") {
      const link = cleanLink(child);
      const key = link === undefined ? undefined : normalizePath(link);
      if (link !== undefined && key !== undefined && !found.has(key)) found.set(key, link);
    } else {
      collect(child, found);
    }
  }
}

/**
 * `/redfish/v1/Chassis/1/Power#/PowerSupplies/0` → `/redfish/v1/Chassis/1/Power` (no fragment, query or trailing
 * slash; still encoded); links outside `/redfish/v1` → undefined.
 */
export function cleanLink(raw: string): string | undefined {
  let link = raw.trim();
  if (/^https?:\/\//i.test(link)) {
    try {
      link = new URL(link).pathname;
    } catch {
      return undefined;
    }
  }
  link = link.replace(/[#?].*$/, "");
  if (!/^\/redfish\/v1(\/|$)/.test(link)) return undefined;
  return `/${rawSegments(link).join("/")}`;
}

function isLogEntries(path: string, body: RedfishObject): boolean {
  const type = typeof body["@odata.type"] === "string" ? body["@odata.type"] : "";
  return (
    type.startsWith("#LogEntryCollection.") || /\/LogServices\/[^/]+\/Entries$/i.test(normalizePath(path))
  );
}
