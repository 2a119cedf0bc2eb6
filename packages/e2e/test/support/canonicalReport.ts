import { createHash } from "node:crypto";
import type { ExplorationReport } from "@racksmith/core";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Fields that differ on every run of the same exploration. */
const PER_RUN = new Set(["exploredAt", "durationMs"]);

/**
 * An exploration report reduced to its content: per-run fields dropped, the server's address replaced by
 * `<server>`, object keys sorted and every array sorted, so two explorations that read the same resources in
 * another order compare equal.
 */
export function canonicalReport(report: ExplorationReport, serverUrl: string): Json {
  const host = new URL(serverUrl).host;
  return canonical(JSON.parse(JSON.stringify(report)) as Json, (text) =>
    text.replaceAll(serverUrl, "<server>").replaceAll(host, "<server>"),
  );
}

function canonical(value: Json, scrub: (text: string) => string): Json {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) {
    return value
      .map((item) => canonical(item, scrub))
      .map((item) => [JSON.stringify(item), item] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, item]) => item);
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => !PER_RUN.has(key))
        .sort()
        .map((key) => [key, canonical(value[key] as Json, scrub)]),
    );
  }
  return value;
}

/** SHA-256 (hex, first 16 characters) of a canonical report's JSON. */
export function reportDigest(canonicalJson: Json): string {
  return createHash("sha256").update(JSON.stringify(canonicalJson)).digest("hex").slice(0, 16);
}
