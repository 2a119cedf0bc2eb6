import { type Logger, silentLogger } from "@racksmith/core";
import pg from "pg";
import { DatabaseUnavailableError, describeCause } from "./errors.js";

type Callback = (payload: string) => void;

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * LISTEN needs a connection of its own that stays open (a pooled one would be handed to other queries).
 * On error it reconnects with backoff and listens again on every channel; notifications sent while it was
 * down are lost, which is why the engine also polls.
 */
export class PgNotificationListener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly callbacks = new Map<string, Set<Callback>>();
  private closed = false;
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly target: string,
    private readonly logger: Logger = silentLogger,
  ) {}

  async listen(channel: string, onNotify: Callback): Promise<() => Promise<void>> {
    let set = this.callbacks.get(channel);
    const first = set === undefined;
    if (!set) {
      set = new Set();
      this.callbacks.set(channel, set);
    }
    set.add(onNotify);
    if (first) {
      try {
        const client = await this.connect();
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        this.callbacks.delete(channel);
        throw new DatabaseUnavailableError(this.target, describeCause(error), { cause: error });
      }
    }
    return async () => {
      const current = this.callbacks.get(channel);
      if (!current?.delete(onNotify) || current.size > 0) return;
      this.callbacks.delete(channel);
      await this.client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.openClient().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async openClient(): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    client.on("notification", (message) => {
      for (const callback of this.callbacks.get(message.channel) ?? []) callback(message.payload ?? "");
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("connection ended")));
    await client.connect();
    this.client = client;
    this.reconnectDelayMs = RECONNECT_MIN_MS;
    return client;
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.logger.warn({ database: this.target, reason: describeCause(error) }, "LISTEN connection lost");
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.callbacks.size === 0) return;
    const delay = this.reconnectDelayMs;
    this.reconnectDelayMs = Math.min(delay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.connect()
        .then(async (client) => {
          for (const channel of this.callbacks.keys()) {
            await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
          }
          this.logger.info({ database: this.target }, "LISTEN connection restored");
        })
        .catch((error: unknown) => {
          this.logger.warn(
            { database: this.target, reason: describeCause(error) },
            "LISTEN reconnect failed",
          );
          this.scheduleReconnect();
        });
    }, delay);
    this.reconnectTimer.unref();
  }
}
