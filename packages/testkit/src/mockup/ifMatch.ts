import { etagsMatch } from "@racksmith/core/redfish";
import type { MockupJsonDocument } from "./mockupDocument.js";

/**
 * `If-Match` as a lenient BMC reads it: `*` matches anything; otherwise any listed tag must equal the current
 * ETag or the body's `@odata.etag`, ignoring `W/` and quotes.
 */
export function ifMatchSatisfied(
  header: string | undefined,
  document: MockupJsonDocument | undefined,
): boolean {
  if (header === undefined || header.trim() === "") return true;
  const tags = header
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
  if (tags.includes("*")) return true;
  if (!document) return false;
  const current = [document.etag, document.body["@odata.etag"]].filter(
    (tag): tag is string => typeof tag === "string",
  );
  return tags.some((tag) => current.some((etag) => etagsMatch(tag, etag)));
}
