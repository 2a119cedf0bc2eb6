import type { MockupLockoutRecord } from "./accountLockout.js";
import { deepMerge, type JsonObject, type JsonValue } from "./json.js";
import { contentEtag, type MockupDocument, type MockupJsonDocument } from "./mockupDocument.js";
import type { MockupTree } from "./mockupTree.js";
import { parentPath, resourceKey } from "./resourcePath.js";

/** One action invocation, as a test inspects it afterwards. */
export interface MockupActionRecord {
  /** The request path the action was posted to. */
  readonly path: string;
  /** `#ComputerSystem.Reset`, `#DellJobService.DeleteJobQueue`, … (or `HttpPushUri` / `MultipartHttpPushUri`). */
  readonly action: string;
  readonly body: JsonValue | undefined;
  readonly at: Date;
}

export interface MockupSession {
  readonly path: string;
  readonly userName: string;
}

interface ScheduledPatch {
  readonly path: string;
  readonly dueAt: number;
  readonly patch: JsonObject;
}

/**
 * What one virtual BMC changed on top of its (shared, immutable) tree: written and deleted resources with their
 * ETag versions, sessions, accounts, scheduled changes (tasks completing) and the action log. Reads see the
 * overlay first, then the tree. Keys are case-insensitive, like the lookups.
 *
 * Bodies returned by {@link read} may be shared with the tree or other readers: treat them as read-only and write
 * a new object instead.
 */
export class MockupState {
  readonly sessions = new Map<string, MockupSession>();
  /** User name → password for every account the BMC accepts. */
  readonly accounts = new Map<string, string>();
  /** Accounts that must change their password before anything else (`password-change-required` mode). */
  readonly passwordChangeRequired = new Set<string>();
  /** Failed logins in a row per user (only counted under a lockout policy). */
  readonly loginFailures = new Map<string, number>();
  /** Locked accounts and when (clock ms) they unlock. */
  readonly lockedUntil = new Map<string, number>();
  /** Every lockout so far, oldest first. */
  readonly lockouts: MockupLockoutRecord[] = [];
  readonly actions: MockupActionRecord[] = [];
  /** Task monitor key → task path. */
  readonly taskMonitors = new Map<string, string>();

  /** Bumped by every write and removal: what is derived from the resources (privileges) is fresh while it holds. */
  private changes = 0;
  private readonly overlay = new Map<string, MockupJsonDocument>();
  private readonly deleted = new Set<string>();
  private readonly versions = new Map<string, number>();
  private readonly scheduled = new Map<string, ScheduledPatch>();

  constructor(
    readonly tree: MockupTree,
    readonly now: () => number = Date.now,
  ) {}

  /** The current document at a path (query ignored), or undefined when it does not exist. */
  async read(path: string): Promise<MockupDocument | undefined> {
    const key = resourceKey(path);
    this.settle(key);
    const written = this.overlay.get(key);
    if (written) return written;
    if (this.isDeleted(key)) return undefined;
    return this.tree.read(withoutQuery(path));
  }

  /** The body of the JSON resource at a path, when it exists and is not an error document. */
  async readJson(path: string): Promise<JsonObject | undefined> {
    const document = await this.read(path);
    return document?.kind === "json" && document.status === 200 ? document.body : undefined;
  }

  /** How many writes and removals this state has seen. */
  get generation(): number {
    return this.changes;
  }

  /** The body written in this state (not the tree's), read synchronously. */
  overlayBody(path: string): JsonObject | undefined {
    return this.overlay.get(resourceKey(path))?.body;
  }

  /**
   * Replaces (or creates) the resource; bumps its version and returns the new document. Captured GET headers are
   * kept from `headers`, else from the previous write.
   */
  write(path: string, body: JsonObject, headers?: Readonly<Record<string, string>>): MockupJsonDocument {
    const key = resourceKey(path);
    this.changes++;
    const version = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, version);
    const etag = contentEtag(`${JSON.stringify(body)}#${version}`);
    // Keep the body's own ETag annotation in step with the header, so either may be sent back in If-Match.
    const stored = typeof body["@odata.etag"] === "string" ? { ...body, "@odata.etag": etag } : body;
    const document: MockupJsonDocument = {
      kind: "json",
      body: stored,
      etag,
      status: 200,
      headers: headers ?? this.overlay.get(key)?.headers ?? {},
    };
    this.overlay.set(key, document);
    this.deleted.delete(key);
    return document;
  }

  /** Deep-merges a patch into an existing JSON resource; undefined when there is none. */
  async merge(path: string, patch: JsonObject): Promise<MockupJsonDocument | undefined> {
    const current = await this.read(path);
    if (current?.kind !== "json" || current.status !== 200) return undefined;
    return this.write(path, deepMerge(current.body, patch), current.headers);
  }

  /** Deletes the resource and everything under it. */
  remove(path: string): void {
    const key = resourceKey(path);
    this.changes++;
    const prefix = `${key}/`;
    for (const existing of [...this.overlay.keys()]) {
      if (existing === key || existing.startsWith(prefix)) this.overlay.delete(existing);
    }
    this.scheduled.delete(key);
    this.deleted.add(key);
  }

  /** Merges `patch` into the resource the first time it is read at or after `dueAt` (tasks completing). */
  schedulePatch(path: string, dueAt: number, patch: JsonObject): void {
    this.scheduled.set(resourceKey(path), { path, dueAt, patch });
  }

  private settle(key: string): void {
    const due = this.scheduled.get(key);
    if (!due || this.now() < due.dueAt) return;
    this.scheduled.delete(key);
    const written = this.overlay.get(key);
    if (written) this.write(due.path, deepMerge(written.body, due.patch));
  }

  private isDeleted(key: string): boolean {
    for (let current = key; current !== "/" && current !== ""; current = parentPath(current)) {
      if (this.deleted.has(current)) return true;
    }
    return false;
  }
}

/** Keeps the caller's spelling (the tree tries it first) but drops the query, which the tree reads as a folder name. */
function withoutQuery(path: string): string {
  const q = path.indexOf("?");
  return q >= 0 ? path.slice(0, q) : path;
}
