import type { Logger } from "@racksmith/core";
import { RedfishClient } from "@racksmith/core/redfish";
import type { BmcCredentials } from "../inventory/contracts.js";
import type { ResolvedSiteExplorerConfig } from "./configSchema.js";

/**
 * Makes Redfish clients for BMC addresses with the operator's connection settings; `signal` aborts every
 * request of the client (an exploration's deadline); `keepConnections: false` closes the BMC's connections when
 * the client closes (see `RedfishClientOptions.keepConnections`).
 */
export type BmcConnector = (
  address: string,
  credentials?: BmcCredentials,
  options?: { signal?: AbortSignal | undefined; keepConnections?: boolean },
) => RedfishClient;

/**
 * `10.0.0.5` → `https://10.0.0.5` (with `bmc.port` when set); an address with a port or a scheme is kept as
 * it is, a bare IPv6 address gets its brackets.
 */
export function bmcUrl(address: string, options: { scheme: string; port?: number | undefined }): string {
  const trimmed = address.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;
  const bareIpv6 = (trimmed.match(/:/g)?.length ?? 0) > 1 && !trimmed.startsWith("[");
  const host = bareIpv6 ? `[${trimmed}]` : trimmed;
  const hasPort = /:\d+$/.test(host) && !bareIpv6;
  return `${options.scheme}://${host}${hasPort || options.port === undefined ? "" : `:${options.port}`}`;
}

/** The `connectVia` origin of `siteExplorer.bmcProxy` (`host:port` takes the BMC scheme). */
export function proxyOrigin(bmcProxy: string | undefined, scheme: string): string | undefined {
  if (!bmcProxy) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(bmcProxy) ? bmcProxy : `${scheme}://${bmcProxy}`;
}

export function createBmcConnector(
  config: ResolvedSiteExplorerConfig,
  options: { ca?: string | undefined; logger: Logger },
): BmcConnector {
  const { bmc } = config;
  const connectVia = proxyOrigin(config.bmcProxy, bmc.scheme);
  return (address, credentials, clientOptions) =>
    new RedfishClient({
      address: bmcUrl(address, bmc),
      ...(credentials ? { credentials, auth: bmc.auth } : { auth: "none" }),
      tls: { insecure: bmc.insecureTls, ...(options.ca ? { ca: options.ca } : {}) },
      maxConcurrency: bmc.maxConcurrency,
      connectTimeoutMs: bmc.connectTimeoutMs,
      requestTimeoutMs: bmc.requestTimeoutMs,
      // One exploration is retried by the next run; quick retries would only slow down dead BMCs.
      retry: { retries: 1 },
      logger: options.logger,
      ...(connectVia ? { connectVia } : {}),
      ...(clientOptions?.signal ? { signal: clientOptions.signal } : {}),
      ...(clientOptions?.keepConnections === false ? { keepConnections: false } : {}),
    });
}
