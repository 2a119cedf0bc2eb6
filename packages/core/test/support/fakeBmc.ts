import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Route = (request: RecordedRequest, response: ServerResponse) => unknown;

/** A scriptable HTTP server standing in for a BMC in client tests; records every request it sees. */
export class FakeBmc {
  readonly requests: RecordedRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** TCP connections accepted so far. */
  connections = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(route: Route): Promise<FakeBmc> {
    let bmc: FakeBmc | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const recorded = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        };
        if (!bmc) return;
        bmc.requests.push(recorded);
        bmc.inFlight++;
        bmc.maxInFlight = Math.max(bmc.maxInFlight, bmc.inFlight);
        res.on("close", () => {
          if (bmc) bmc.inFlight--;
        });
        Promise.resolve(route(recorded, res)).catch((error: unknown) => {
          res.statusCode = 500;
          res.end(String(error));
        });
      });
    });
    server.on("connection", () => {
      if (bmc) bmc.connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    bmc = new FakeBmc(server, `http://127.0.0.1:${port}`);
    return bmc;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(body === undefined ? "" : JSON.stringify(body));
}

export function redfishError(messageId: string, message = "failed"): unknown {
  return {
    error: {
      code: "Base.1.8.GeneralError",
      message,
      "@Message.ExtendedInfo": [{ MessageId: messageId, Message: message, Severity: "Critical" }],
    },
  };
}
