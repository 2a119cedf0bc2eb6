import type { MockupBehavior, MockupHookContext, MockupHookResult } from "../mockup/behaviors.js";
import type { JsonObject } from "../mockup/json.js";

/** A write that reached the mockup, as the driver sent it (before any vendor behavior answered it). */
export interface RecordedWrite {
  /** `POST` also for actions. */
  readonly method: "PATCH" | "POST";
  /** The path as sent: trailing slash and case kept, no query. */
  readonly path: string;
  readonly body: JsonObject;
  /** The request's `If-Match` header; present only when the request had one. */
  readonly ifMatch?: string;
}

/** Answers one recorded write instead of the mockup; undefined lets the request go on. */
export type WriteResponder = (write: RecordedWrite) => MockupHookResult | Promise<MockupHookResult>;

interface Interception {
  readonly method: RecordedWrite["method"];
  readonly path: string | RegExp;
  readonly respond: WriteResponder;
}

/** A path matches a string it contains, or a pattern it matches. */
export function pathMatches(path: string, pattern: string | RegExp): boolean {
  return typeof pattern === "string" ? path.includes(pattern) : pattern.test(path);
}

/**
 * The behavior a {@link DriverMockup} puts in front of every other one: it records each PATCH and POST
 * (actions included, unless `recordActions` is false) and answers the next write (or action) an interception
 * matches.
 */
export class WriteRecorder {
  readonly writes: RecordedWrite[] = [];
  private interceptions: Interception[] = [];

  constructor(private readonly recordActions: boolean = true) {}

  /** The behavior to install first, so it sees requests the vendor behaviors answer themselves. */
  behavior(): MockupBehavior {
    const record =
      (method: RecordedWrite["method"], kept: boolean) =>
      (context: MockupHookContext): Promise<MockupHookResult> =>
        this.record(method, context, kept);
    return {
      name: "driver-mockup-recorder",
      patch: { "/**": record("PATCH", true) },
      post: { "/**": record("POST", true) },
      actions: { "/**": record("POST", this.recordActions) },
    };
  }

  /** The next write with this method whose path contains `path` (or matches it) gets `respond`'s answer. */
  intercept(method: RecordedWrite["method"], path: string | RegExp, respond: WriteResponder): void {
    this.interceptions.push({ method, path, respond });
  }

  /** The writes recorded so far (those `match` accepts), forgotten; the others stay recorded. */
  take(match?: (write: RecordedWrite) => boolean): RecordedWrite[] {
    if (!match) return this.writes.splice(0);
    const taken = this.writes.filter(match);
    const kept = this.writes.filter((write) => !match(write));
    this.writes.splice(0, this.writes.length, ...kept);
    return taken;
  }

  /** Forgets the recorded writes and the interceptions not used yet. */
  clear(): void {
    this.writes.length = 0;
    this.interceptions = [];
  }

  private async record(
    method: RecordedWrite["method"],
    context: MockupHookContext,
    kept: boolean,
  ): Promise<MockupHookResult> {
    const { request, body } = context;
    const ifMatch = request.headers["if-match"];
    const write: RecordedWrite = {
      method,
      path: request.pathname,
      body,
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    };
    if (kept) this.writes.push(write);
    const index = this.interceptions.findIndex((i) => i.method === method && pathMatches(write.path, i.path));
    if (index < 0) return undefined;
    const [interception] = this.interceptions.splice(index, 1);
    return interception?.respond(write);
  }
}
