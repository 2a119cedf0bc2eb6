import { isJsonObject, type JsonObject, linkOf } from "@racksmith/testkit";
import type { ScannedDocument } from "./types.js";

/** Reads a scanned document by path (case and a trailing slash ignored, as the tree's lookups do). */
export type ReadDocument = (path: string) => JsonObject | undefined;

export function documentReader(documents: readonly ScannedDocument[]): ReadDocument {
  const byPath = new Map(documents.map((document) => [normalize(document.path), document.body]));
  return (path) => byPath.get(normalize(path));
}

/** The member paths of a collection. */
export function memberPaths(read: ReadDocument, collection: string | undefined): string[] {
  const members = collection ? read(collection)?.Members : undefined;
  return Array.isArray(members) ? members.map(linkOf).filter((path): path is string => !!path) : [];
}

/** The first link of a list at `keys` (`Links.Chassis[0]`). */
export function firstLink(resource: JsonObject | undefined, ...keys: string[]): string | undefined {
  let value: unknown = resource;
  for (const key of keys) value = isJsonObject(value) ? value[key] : undefined;
  return Array.isArray(value) ? linkOf(value[0]) : undefined;
}

function normalize(path: string): string {
  return path.replace(/\/+$/, "").toLowerCase();
}
