import { formatListenAddress, type ListenAddress } from "../service/index.js";

const PROBE_TIMEOUT_MS = 2_000;

/** The URL to reach a listen address from this machine: a wildcard host is reached on loopback. */
export function localUrl(address: ListenAddress, path: string): string {
  const host =
    address.host === "0.0.0.0" || address.host === ""
      ? "127.0.0.1"
      : address.host === "::"
        ? "::1"
        : address.host;
  return `http://${formatListenAddress({ host, port: address.port })}${path}`;
}

/**
 * Whether a Racksmith service answers on a REST address: `/healthz` says `{ status: "ok" }`; its version
 * (`/api/v1/version`) is added when it answers. Undefined for anything else or no answer.
 */
export async function racksmithServiceAt(
  address: ListenAddress,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | undefined> {
  const health = await getJson(localUrl(address, "/healthz"), timeoutMs);
  if (!isRecord(health) || health.status !== "ok") return undefined;
  const version = await getJson(localUrl(address, "/api/v1/version"), timeoutMs);
  return isRecord(version) && typeof version.coreVersion === "string"
    ? `a Racksmith service (core ${version.coreVersion})`
    : "a Racksmith service";
}

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
