import { createServer } from "node:net";
import { RacksmithError } from "@racksmith/core";
import { formatListenAddress, type ListenAddress } from "./listenAddress.js";

/** A listener's address is taken: named by listener and config key, found before any migration runs. */
export class ListenAddressInUseError extends RacksmithError {
  constructor(listener: string, address: string, key: string, options: { cause?: unknown } = {}) {
    super(
      "listen_address_in_use",
      "FAILED_PRECONDITION",
      `${listener} listener ${address} is in use: stop what listens there, or choose another address (${key})`,
      {
        details: { listener, address, key },
        ...(options.cause === undefined ? {} : { cause: options.cause }),
      },
    );
  }
}

export interface Listener {
  /** `REST`, `gRPC`. */
  readonly name: string;
  readonly address: ListenAddress;
  /** The config key and flag that set it, for the fix. */
  readonly key: string;
}

/**
 * Binds each fixed address for a moment and lets it go, so a taken port fails the start at once instead of
 * after the database is opened and migrated. Port 0 (any free port) cannot be taken.
 */
export async function assertListenersFree(listeners: readonly Listener[]): Promise<void> {
  for (const listener of listeners) {
    if (listener.address.port === 0) continue;
    const outcome = await tryListen(listener.address);
    if (outcome !== "free") throw outcome.code === "EADDRINUSE" ? inUse(listener, outcome) : outcome;
  }
}

/** Listens on the address for a moment and lets go: "free", or the error that stopped it. */
export function tryListen(address: ListenAddress): Promise<"free" | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ host: address.host, port: address.port }, () => probe.close(() => resolve("free")));
  });
}

/** The error a listen that failed on a taken address becomes; others are returned as they are. */
export function listenFailure(listener: Listener, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // grpc-js reports a taken port only as "No address added out of total N resolved".
  const message = String((error as Error | undefined)?.message ?? "");
  return code === "EADDRINUSE" || /No address added/.test(message) ? inUse(listener, error) : error;
}

function inUse(listener: Listener, cause: unknown): ListenAddressInUseError {
  return new ListenAddressInUseError(listener.name, formatListenAddress(listener.address), listener.key, {
    cause,
  });
}
