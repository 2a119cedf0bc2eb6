import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { capturedGetHeaders, contentEtag, jsonFileDocument, type MockupDocument } from "./mockupDocument.js";
import { detectMockupLayout, type MockupLayout } from "./mockupLayout.js";
import { decodeSegment, rawSegments, splitTarget } from "./resourcePath.js";

interface DirectoryListing {
  readonly directories: ReadonlySet<string>;
  /** Lower-cased name → every spelling present (HPE captures hold both `Systems` and `systems`). */
  readonly directoriesByLowerCase: ReadonlyMap<string, readonly string[]>;
  readonly files: ReadonlySet<string>;
}

/** More paths than any capture holds, in every spelling a client might use. */
const MAX_RESOLVED_PATHS = 20_000;

const EMPTY_LISTING: DirectoryListing = {
  directories: new Set(),
  directoriesByLowerCase: new Map(),
  files: new Set(),
};

/**
 * An immutable, lazily loaded view of a mockup folder, shared by every virtual BMC that serves it. Nothing is read
 * at open time beyond the service root: a directory is listed the first time a path walks through it, a document is
 * parsed the first time it is asked for, and both are cached. A lookup tries each segment as written, then
 * percent-decoded, then case-insensitively (backtracking across spellings), so Dell's `:` paths and HPE's
 * lower-case, trailing-slash links all resolve.
 */
export class MockupTree {
  private readonly listings = new Map<string, Promise<DirectoryListing>>();
  private readonly documents = new Map<string, Promise<MockupDocument | undefined>>();
  /** Request paths already resolved to their folder (a fleet asks the same few hundred paths of every BMC). */
  private readonly resolved = new Map<string, string>();

  private constructor(readonly layout: MockupLayout) {}

  /** Opens a mockup in any supported layout; throws {@link MockupRootNotFoundError} when there is none. */
  static async open(directory: string): Promise<MockupTree> {
    return new MockupTree(await detectMockupLayout(directory));
  }

  /** The folder the caller gave. */
  get directory(): string {
    return this.layout.directory;
  }

  /**
   * The document at a request path under `/redfish/v1` (query ignored unless it is part of a captured folder
   * name, such as Dell's `DellSlots?$skip=50`), or undefined when the capture does not hold it.
   */
  async read(requestPath: string): Promise<MockupDocument | undefined> {
    const directory = this.resolved.get(requestPath) ?? (await this.resolveDirectory(requestPath));
    if (!directory) return undefined;
    // Only paths the capture holds are kept: they are bounded by it, where paths asked in vain are not.
    if (this.resolved.size < MAX_RESOLVED_PATHS) this.resolved.set(requestPath, directory);
    let document = this.documents.get(directory);
    if (!document) {
      document = this.load(directory);
      this.documents.set(directory, document);
    }
    return document;
  }

  private async resolveDirectory(requestPath: string): Promise<string | undefined> {
    const { pathname, query } = splitTarget(requestPath);
    const segments = rawSegments(pathname);
    if (
      segments.length < 2 ||
      segments[0]?.toLowerCase() !== "redfish" ||
      segments[1]?.toLowerCase() !== "v1"
    ) {
      return undefined;
    }
    const rest = segments.slice(2);
    if (query !== "") {
      // Mockup-Creator saves followed next-links as folders named with their query.
      const last = rest.pop();
      if (last === undefined) return undefined;
      rest.push(`${last}?${query}`);
    }
    const spellings = rest.map((segment) => unique([segment, decodeSegment(segment)]));
    return this.walk(this.layout.serviceRootDirectory, spellings, 0);
  }

  private async walk(
    directory: string,
    spellings: readonly (readonly string[])[],
    index: number,
  ): Promise<string | undefined> {
    const listing = await this.listing(directory);
    const candidates = spellings[index];
    if (candidates === undefined) {
      return listing.files.has("index.json") || listing.files.has("index.xml") ? directory : undefined;
    }
    const tried = new Set<string>();
    const exact = candidates.filter((name) => listing.directories.has(name));
    const caseless = candidates.flatMap(
      (name) => listing.directoriesByLowerCase.get(name.toLowerCase()) ?? [],
    );
    for (const name of [...exact, ...caseless]) {
      if (tried.has(name)) continue;
      tried.add(name);
      const found = await this.walk(join(directory, name), spellings, index + 1);
      if (found) return found;
    }
    return undefined;
  }

  private listing(directory: string): Promise<DirectoryListing> {
    let listing = this.listings.get(directory);
    if (!listing) {
      listing = listDirectory(directory);
      this.listings.set(directory, listing);
    }
    return listing;
  }

  private async load(directory: string): Promise<MockupDocument | undefined> {
    const listing = await this.listing(directory);
    const headers = listing.files.has("headers.json")
      ? capturedGetHeaders(await readFile(join(directory, "headers.json"), "utf8"))
      : {};
    if (listing.files.has("index.json")) {
      return jsonFileDocument(await readFile(join(directory, "index.json"), "utf8"), headers);
    }
    if (listing.files.has("index.xml")) {
      const text = await readFile(join(directory, "index.xml"), "utf8");
      return {
        kind: "text",
        text,
        contentType: "application/xml",
        etag: contentEtag(text),
        status: 200,
        headers,
      };
    }
    return undefined;
  }
}

async function listDirectory(directory: string): Promise<DirectoryListing> {
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return EMPTY_LISTING;
  }
  const directories = new Set<string>();
  const directoriesByLowerCase = new Map<string, string[]>();
  const files = new Set<string>();
  for (const entry of entries) {
    if (entry.isDirectory()) {
      directories.add(entry.name);
      const lower = entry.name.toLowerCase();
      const spellings = directoriesByLowerCase.get(lower);
      if (spellings) spellings.push(entry.name);
      else directoriesByLowerCase.set(lower, [entry.name]);
    } else {
      files.add(entry.name);
    }
  }
  return { directories, directoriesByLowerCase, files };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
