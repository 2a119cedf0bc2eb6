import { InvalidArgumentError, type Logger, silentLogger } from "@racksmith/core";
import {
  type RedfishAuthMode,
  RedfishClient,
  type RedfishCredentials,
  RedfishHttpError,
  type RedfishObject,
} from "@racksmith/core/redfish";
import { compileGlob, matchesGlob } from "../mockup/globPattern.js";
import { normalizePath } from "../mockup/resourcePath.js";
import { linksToFollow } from "./crawlLinks.js";
import { RecorderAuthenticationError, RecorderServiceRootError } from "./errors.js";
import { readMetadataDocument } from "./metadataDocument.js";
import { recorderReadme } from "./recorderReadme.js";
import { RecordingWriter } from "./recordingWriter.js";

export interface RecordMockupOptions {
  /** The BMC: `https://10.0.0.5`, `10.0.0.5:8443` or `http://127.0.0.1:8000`. Required unless `client`. */
  readonly address?: string;
  readonly credentials?: RedfishCredentials;
  /** Default: basic when credentials are given. */
  readonly auth?: RedfishAuthMode;
  /** Accept the BMC's self-signed certificate. */
  readonly insecure?: boolean;
  /**
   * Record through this client instead of one built from `address`, `credentials`, `auth` and `insecure`
   * (which must then be left out): its TLS, timeout, auth and retry settings apply. The caller owns it: the
   * recorder does not close it.
   */
  readonly client?: RedfishClient;
  /** Output folder; must be empty unless `overwrite`. */
  readonly out: string;
  readonly overwrite?: boolean;
  /** Links followed from the service root (default 12). */
  readonly maxDepth?: number;
  /** Members followed per collection; the collection itself is recorded whole (default 200). */
  readonly maxMembers?: number;
  /** Members followed per log-entries collection (default 20). */
  readonly maxLogEntries?: number;
  /** Path globs to record (the service root always is); anything else is neither recorded nor crawled. */
  readonly include?: readonly string[];
  /** Path globs never recorded nor crawled. */
  readonly exclude?: readonly string[];
  /** Resources fetched at once (the client also caps requests per BMC; default 8). */
  readonly concurrency?: number;
  readonly onProgress?: (progress: RecordProgress) => void;
  readonly logger?: Logger;
}

export interface RecordProgress {
  readonly recorded: number;
  /** Waiting or being fetched. */
  readonly pending: number;
  readonly errors: number;
  /** The resource just handled. */
  readonly path: string;
}

export interface RecordedError {
  readonly path: string;
  readonly message: string;
}

export interface RecordResult {
  /** JSON resources written (the service root included, `$metadata` not). */
  readonly resources: number;
  readonly errors: RecordedError[];
  /** The output folder, absolute. */
  readonly out: string;
  readonly elapsedMs: number;
}

interface CrawlItem {
  readonly path: string;
  readonly depth: number;
}

const SERVICE_ROOT = "/redfish/v1";
const DEFAULTS = { maxDepth: 12, maxMembers: 200, maxLogEntries: 20, concurrency: 8 };

/**
 * Records a live Redfish service into a DMTF full-form mockup that {@link MockupServer} serves back unchanged:
 * a breadth-first crawl from `/redfish/v1` over every `@odata.id`, within depth and member limits, plus
 * `$metadata` and a README. A resource that fails is listed in `errors` and the crawl goes on; credentials and
 * session tokens are never written.
 */
export async function recordMockup(options: RecordMockupOptions): Promise<RecordResult> {
  const started = performance.now();
  const limits = {
    maxDepth: count("maxDepth", options.maxDepth ?? DEFAULTS.maxDepth, 0),
    maxMembers: count("maxMembers", options.maxMembers ?? DEFAULTS.maxMembers, 0),
    maxLogEntries: count("maxLogEntries", options.maxLogEntries ?? DEFAULTS.maxLogEntries, 0),
  };
  count("concurrency", options.concurrency ?? DEFAULTS.concurrency, 1);
  checkTarget(options);
  const writer = new RecordingWriter(options.out);
  await writer.prepare(options.overwrite ?? false);
  const client =
    options.client ??
    new RedfishClient({
      address: options.address as string,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.auth ? { auth: options.auth } : {}),
      tls: { insecure: options.insecure ?? false },
      logger: options.logger ?? silentLogger,
    });
  try {
    let root: RedfishObject;
    try {
      root = await client.get(SERVICE_ROOT);
    } catch (error) {
      if (error instanceof RedfishHttpError && error.httpStatus === 401) {
        throw new RecorderAuthenticationError(client.displayAddress, writer.out, error);
      }
      throw new RecorderServiceRootError(client.displayAddress, error);
    }
    const crawl = new Crawl(client, writer, limits, options);
    await crawl.run(root);
    if (crawl.refused)
      throw new RecorderAuthenticationError(client.displayAddress, writer.out, crawl.refused);
    await writer.writeVersions(await redfishVersions(client));
    await recordMetadata(client, writer, crawl.errors);
    const elapsedMs = Math.round(performance.now() - started);
    await writer.writeFile(
      "README",
      recorderReadme({
        createdAt: new Date(),
        service: client.displayAddress,
        resources: crawl.recorded,
        elapsedMs,
        limits,
        errors: crawl.errors,
      }),
    );
    return { resources: crawl.recorded, errors: crawl.errors, out: writer.out, elapsedMs };
  } finally {
    if (!options.client) await client.close();
  }
}

/** Either an address (with its connection options) or a ready client, not both. */
function checkTarget(options: RecordMockupOptions): void {
  if (!options.client) {
    if (!options.address) throw new InvalidArgumentError("recordMockup needs an address or a client");
    return;
  }
  const clashing = (["address", "credentials", "auth", "insecure"] as const).filter(
    (name) => options[name] !== undefined,
  );
  if (clashing.length > 0) {
    throw new InvalidArgumentError(
      `recordMockup takes either a client or ${clashing.join(", ")} (the client already has them), not both`,
    );
  }
}

/** The breadth-first walk: a queue, a bounded number of fetches at once, every path visited once. */
class Crawl {
  recorded = 0;
  readonly errors: RecordedError[] = [];
  /** Set when the BMC answered 401: the credentials do not work. */
  refused: RedfishHttpError | undefined;
  private readonly seen = new Set<string>();
  private readonly queue: CrawlItem[] = [];
  private readonly include: RegExp[] | undefined;
  private readonly exclude: RegExp[];
  private active = 0;

  constructor(
    private readonly client: RedfishClient,
    private readonly writer: RecordingWriter,
    private readonly limits: { maxDepth: number; maxMembers: number; maxLogEntries: number },
    private readonly options: RecordMockupOptions,
  ) {
    this.include = options.include?.map(compileGlob);
    this.exclude = (options.exclude ?? []).map(compileGlob);
  }

  async run(root: RedfishObject): Promise<void> {
    this.seen.add(SERVICE_ROOT);
    await this.store({ path: SERVICE_ROOT, depth: 0 }, root);
    // Mockup-Creator records the OData service document too; the service root does not link it.
    this.enqueue(`${SERVICE_ROOT}/odata`, 1);
    await new Promise<void>((resolve) => {
      const pump = (): void => {
        while (this.active < (this.options.concurrency ?? DEFAULTS.concurrency) && this.queue.length > 0) {
          const item = this.queue.shift() as CrawlItem;
          this.active++;
          void this.visit(item).finally(() => {
            this.active--;
            pump();
          });
        }
        if (this.active === 0 && this.queue.length === 0) resolve();
      };
      pump();
    });
  }

  private async visit(item: CrawlItem): Promise<void> {
    try {
      await this.store(item, await this.client.get(item.path));
    } catch (error) {
      if (error instanceof RedfishHttpError && error.httpStatus === 401) {
        // Every other request would be refused too: stop instead of recording a tree of errors.
        this.refused ??= error;
        this.queue.length = 0;
        return;
      }
      this.errors.push({ path: item.path, message: (error as Error).message ?? String(error) });
      this.progress(item.path);
    }
  }

  private async store(item: CrawlItem, body: RedfishObject): Promise<void> {
    const directory = this.writer.directoryOf(item.path);
    if (!directory) {
      this.errors.push({
        path: item.path,
        message: "path cannot be stored safely (a segment would leave the output folder)",
      });
      this.progress(item.path);
      return;
    }
    await this.writer.writeJson(directory, body);
    this.recorded++;
    if (item.depth < this.limits.maxDepth) {
      for (const link of linksToFollow(item.path, body, this.limits)) this.enqueue(link, item.depth + 1);
    }
    this.progress(item.path);
  }

  private enqueue(path: string, depth: number): void {
    const key = normalizePath(path);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.include && !this.include.some((pattern) => matchesGlob(pattern, key))) return;
    if (this.exclude.some((pattern) => matchesGlob(pattern, key))) return;
    this.queue.push({ path, depth });
  }

  private progress(path: string): void {
    this.options.onProgress?.({
      recorded: this.recorded,
      pending: this.queue.length + this.active,
      errors: this.errors.length,
      path,
    });
  }
}

function count(name: string, value: number, minimum: number): number {
  if (!Number.isInteger(value) || value < minimum) {
    throw new InvalidArgumentError(`${name} must be an integer >= ${minimum}, got ${value}`);
  }
  return value;
}

/** `/redfish` as the service answers it, or the standard `{"v1": "/redfish/v1/"}`. */
async function redfishVersions(client: RedfishClient): Promise<RedfishObject> {
  try {
    return await client.get("/redfish", { anonymous: true });
  } catch {
    return { v1: "/redfish/v1/" };
  }
}

async function recordMetadata(
  client: RedfishClient,
  writer: RecordingWriter,
  errors: RecordedError[],
): Promise<void> {
  const path = `${SERVICE_ROOT}/$metadata`;
  try {
    await writer.writeMetadata(await readMetadataDocument(client));
  } catch (error) {
    errors.push({ path, message: (error as Error).message ?? String(error) });
  }
}
