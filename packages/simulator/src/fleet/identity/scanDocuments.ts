import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { MockupTree } from "@racksmith/testkit";
import type { ScannedDocument } from "./types.js";

/**
 * Every document of a mockup as it is served (through the tree, so `@Redfish.Copyright` is gone), found by
 * walking its folders once. Fleets scan each mockup once, whatever the number of virtual BMCs serving it.
 */
export async function scanDocuments(tree: MockupTree): Promise<ScannedDocument[]> {
  const documents: ScannedDocument[] = [];
  for (const segments of await resourceFolders(tree.layout.serviceRootDirectory, [])) {
    const path = ["/redfish/v1", ...segments].join("/");
    const document = await tree.read(path);
    if (!document) continue;
    documents.push(
      document.kind === "json"
        ? { path, body: document.body, text: JSON.stringify(document.body) }
        : { path, body: undefined, text: document.text },
    );
  }
  return documents;
}

async function resourceFolders(directory: string, segments: readonly string[]): Promise<string[][]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const found: string[][] = [];
  if (entries.some((entry) => entry.isFile() && /^index\.(json|xml)$/.test(entry.name)))
    found.push([...segments]);
  for (const entry of entries) {
    if (entry.isDirectory()) {
      found.push(...(await resourceFolders(join(directory, entry.name), [...segments, entry.name])));
    }
  }
  return found;
}
