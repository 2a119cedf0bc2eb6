import { createHash } from "node:crypto";
import { parseServiceMetadata, type ServiceMetadata } from "./metadata.js";

/** How many distinct `$metadata` documents are kept parsed: one per firmware build in a fleet, roughly. */
const DEFAULT_LIMIT = 64;

/**
 * Parses `$metadata` documents once per distinct text. A fleet runs a handful of firmware builds, and every
 * BMC of a build serves the same document, so exploring parses each once instead of on every connection (the
 * parse was a third of an exploration's CPU). Keyed by a SHA-256 of the text, least recently used dropped
 * first; callers get their own arrays, so nothing they change reaches the cache.
 */
export function createMetadataCache(
  parse: (xml: string) => ServiceMetadata | undefined = parseServiceMetadata,
  limit = DEFAULT_LIMIT,
): (xml: string) => ServiceMetadata | undefined {
  const parsed = new Map<string, ServiceMetadata | undefined>();
  return (xml) => {
    const key = createHash("sha256").update(xml).digest("base64");
    let metadata: ServiceMetadata | undefined;
    if (parsed.has(key)) {
      metadata = parsed.get(key);
      parsed.delete(key);
    } else {
      metadata = parse(xml);
      if (parsed.size >= Math.max(1, limit)) parsed.delete(parsed.keys().next().value as string);
    }
    parsed.set(key, metadata);
    return metadata && copy(metadata);
  };
}

function copy(metadata: ServiceMetadata): ServiceMetadata {
  return {
    namespaces: [...metadata.namespaces],
    oemNamespaces: [...metadata.oemNamespaces],
    oemPrefixes: [...metadata.oemPrefixes],
  };
}

/** The process-wide cache `probeService` reads `$metadata` through. */
export const parseServiceMetadataCached = createMetadataCache();
