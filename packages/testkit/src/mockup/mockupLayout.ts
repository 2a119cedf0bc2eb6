import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { MockupRootNotFoundError } from "./errors.js";
import { isJsonObject } from "./json.js";

/**
 * How a mockup folder is laid out: `full` (Mockup-Creator output: `D/redfish/v1/…`), `redfish-folder` (the user
 * passed the `redfish` folder itself: `D/v1/…`) or `short` (DMTF's published mockups: `D` is the service root).
 */
export type MockupLayoutKind = "full" | "redfish-folder" | "short";

export interface MockupLayout {
  readonly kind: MockupLayoutKind;
  /** The folder the caller gave. */
  readonly directory: string;
  /** The folder that maps to `/redfish/v1`. */
  readonly serviceRootDirectory: string;
}

/** Detects the layout from the files present; no flag needed. */
export async function detectMockupLayout(directory: string): Promise<MockupLayout> {
  const absolute = resolve(directory);
  const candidates: Array<{ kind: MockupLayoutKind; dir: string }> = [
    { kind: "full", dir: join(absolute, "redfish", "v1") },
    { kind: "redfish-folder", dir: join(absolute, "v1") },
    { kind: "short", dir: absolute },
  ];
  for (const candidate of candidates) {
    if (await isServiceRootDocument(join(candidate.dir, "index.json"))) {
      return { kind: candidate.kind, directory: absolute, serviceRootDirectory: candidate.dir };
    }
  }
  throw new MockupRootNotFoundError(
    absolute,
    candidates.map((c) => join(c.dir, "index.json")),
  );
}

async function isServiceRootDocument(file: string): Promise<boolean> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return false;
  }
  if (!isJsonObject(parsed)) return false;
  const id = parsed["@odata.id"];
  const type = parsed["@odata.type"];
  return (
    (typeof id === "string" && /^\/redfish\/v1\/?$/.test(id)) ||
    (typeof type === "string" && type.startsWith("#ServiceRoot."))
  );
}
