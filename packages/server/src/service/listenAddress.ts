import { InvalidArgumentError } from "@racksmith/core";

export interface ListenAddress {
  host: string;
  port: number;
}

/** `127.0.0.1:8080`, `[::1]:8080`, `:8080` (all interfaces) → host and port. */
export function parseListenAddress(value: string, what: string): ListenAddress {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]*)):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port > 65_535) {
    throw new InvalidArgumentError(
      `${what} must be host:port (e.g. 127.0.0.1:8080), got ${JSON.stringify(value)}`,
    );
  }
  return { host: match[1] ?? (match[2] || "0.0.0.0"), port };
}

export function formatListenAddress({ host, port }: ListenAddress): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}
