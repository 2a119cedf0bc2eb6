import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { MockupService } from "@racksmith/testkit";

/**
 * One listener in front of many in-process mockup BMCs, routing each request on the BMC address named in its
 * `Forwarded: host=` header (what the explorer sends through `siteExplorer.bmcProxy`).
 */
export class BmcRouter {
  readonly bmcs = new Map<string, MockupService>();

  private constructor(
    private readonly server: Server,
    readonly listen: string,
  ) {}

  static async start(): Promise<BmcRouter> {
    let router: BmcRouter | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", async () => {
        const forwarded = /host="?([^";,]+)"?/i.exec(String(request.headers.forwarded ?? ""))?.[1];
        const bmc = forwarded ? router?.bmcs.get(forwarded) : undefined;
        if (!bmc) {
          response
            .writeHead(404, { "content-type": "text/plain" })
            .end(`no BMC at ${forwarded ?? "(no Forwarded host)"}`);
          return;
        }
        const answer = await bmc.handle({
          method: request.method ?? "GET",
          path: request.url ?? "/",
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const body =
          answer.body === undefined
            ? ""
            : typeof answer.body === "string"
              ? answer.body
              : JSON.stringify(answer.body);
        response.writeHead(answer.status, answer.headers).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    router = new BmcRouter(server, `127.0.0.1:${(server.address() as AddressInfo).port}`);
    return router;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
