/**
 * Request paths as the mockup sees them. A resource is identified by its decoded, slash-trimmed path; lookups
 * compare keys case-insensitively because real BMCs (HPE iLO) link `/redfish/v1/systems/1/bios/` to a resource
 * that lives at `Systems/1/Bios`.
 */

export const SERVICE_ROOT_PATH = "/redfish/v1";

/** Splits `/a/b?x=1` into its pathname and query (without `?`). */
export function splitTarget(target: string): { pathname: string; query: string } {
  const hash = target.indexOf("#");
  const clean = hash >= 0 ? target.slice(0, hash) : target;
  const q = clean.indexOf("?");
  return q >= 0 ? { pathname: clean.slice(0, q), query: clean.slice(q + 1) } : { pathname: clean, query: "" };
}

/** Percent-decodes one segment; a malformed escape is kept as written. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The raw (still encoded) non-empty segments of a pathname. */
export function rawSegments(pathname: string): string[] {
  return pathname.split("/").filter((segment) => segment !== "");
}

/** A path already normalized: one slash before each non-empty segment, nothing to decode, no query or fragment. */
const NORMALIZED = /^(?:\/[^/%?#]+)+$/;

/** `/redfish/v1/systems/1/bios/` → `/redfish/v1/systems/1/bios` (decoded, no trailing slash, case kept). */
export function normalizePath(pathname: string): string {
  // Most requests name a resource as its links spell it: nothing to split, decode or join (the mockup server's
  // every lookup comes here).
  if (NORMALIZED.test(pathname)) return pathname;
  return `/${rawSegments(splitTarget(pathname).pathname).map(decodeSegment).join("/")}`;
}

/** The identity of a resource in the overlay: normalized and lower-cased. */
export function resourceKey(pathname: string): string {
  return normalizePath(pathname).toLowerCase();
}

export function samePath(a: string, b: string): boolean {
  return resourceKey(a) === resourceKey(b);
}

/** The parent of a normalized path (`/redfish/v1/Systems/1` → `/redfish/v1/Systems`). */
export function parentPath(pathname: string): string {
  const path = normalizePath(pathname);
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/** The decoded last segment (a member's `Id` by Redfish convention). */
export function lastPathSegment(pathname: string): string {
  const path = normalizePath(pathname);
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Appends a child id to a path, encoding what a path segment may not carry. */
export function childPath(parent: string, id: string): string {
  return `${normalizePath(parent)}/${encodeURIComponent(id)}`;
}
