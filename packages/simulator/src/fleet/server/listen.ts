import { createServer as createHttpServer, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { TlsCertificate } from "@racksmith/testkit";
import { FleetStartError } from "../errors.js";

/** An open HTTP(S) port. */
export interface Listener {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Opens a plain node HTTP(S) server (a fleet answers many small requests: no framework in the way) on
 * `host:port` (0: any free port).
 */
export async function listen(
  handler: RequestListener,
  options: { host: string; port: number; certificate: TlsCertificate | undefined },
): Promise<Listener> {
  const server: Server = options.certificate
    ? createHttpsServer({ key: options.certificate.key, cert: options.certificate.cert }, handler)
    : createHttpServer(handler);
  server.keepAliveTimeout = 30_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, options.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    throw new FleetStartError(`${options.host}:${options.port}`, (error as Error).message, error);
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.certificate ? "https" : "http"}://${urlHost(options.host)}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
