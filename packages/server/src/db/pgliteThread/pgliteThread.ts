import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { INT8_OID } from "../types.js";
import { WORKER_SOURCE } from "./workerSource.js";

/** What the Kysely dialect and the service need of an embedded PostgreSQL. */
export interface EmbeddedPostgres {
  readonly closed: boolean;
  query<R>(sql: string, params: readonly unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  /** Calls `onNotify` for each NOTIFY on the channel; resolves to a function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

type Call =
  | { op: "open"; dataDir: string | undefined; schema: string | undefined }
  | { op: "query"; sql: string; params: unknown[] }
  | { op: "listen"; channel: string; listenId: number }
  | { op: "unlisten"; listenId: number }
  | { op: "close" };

type Reply =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: Record<string, unknown> & { message: string } }
  | { notify: number; payload: string };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * PGlite in a worker thread: its WebAssembly runs on another core than the service, the agents' reports and the
 * fleet, instead of taking turns with them on one event loop. Calls are messages; errors come back with
 * PostgreSQL's fields (`code`, `detail`, …). The thread keeps the process alive only while a call is pending.
 */
export class PgliteThread implements EmbeddedPostgres {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private nextId = 1;
  private ended: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on("message", (reply: Reply) => this.receive(reply));
    worker.on("error", (error) => this.end(error));
    worker.on("exit", (code) =>
      this.end(new Error(`the embedded database thread stopped (exit code ${code})`)),
    );
  }

  static async open(dataDir: string | undefined, schema: string | undefined): Promise<PgliteThread> {
    const pglitePath = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pglitePath, int8Oid: INT8_OID } });
    const thread = new PgliteThread(worker);
    try {
      await thread.call({ op: "open", dataDir, schema });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return thread;
  }

  get closed(): boolean {
    return this.ended !== undefined;
  }

  async query<R>(sql: string, params: readonly unknown[]): Promise<{ rows: R[]; affectedRows?: number }> {
    return (await this.call({ op: "query", sql, params: [...params] })) as {
      rows: R[];
      affectedRows?: number;
    };
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const listenId = this.nextId++;
    this.listeners.set(listenId, onNotify);
    await this.call({ op: "listen", channel, listenId });
    return async () => {
      this.listeners.delete(listenId);
      if (!this.closed) await this.call({ op: "unlisten", listenId });
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call({ op: "close" });
    this.end(new Error("the embedded database is closed"));
    await this.worker.terminate();
  }

  private call(call: Call): Promise<unknown> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...call });
    });
  }

  private receive(reply: Reply): void {
    if ("notify" in reply) {
      this.listeners.get(reply.notify)?.(reply.payload);
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.settled(reply.id);
    if (reply.error) pending.reject(Object.assign(new Error(reply.error.message), reply.error));
    else pending.resolve(reply.result);
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private end(error: Error): void {
    if (this.ended) return;
    this.ended = error;
    for (const [id, pending] of this.pending) {
      this.settled(id);
      pending.reject(error);
    }
  }
}
