import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path with its query string, as sent. */
  url: string;
  body: unknown;
}

export interface CannedResponse {
  status: number;
  body: unknown;
}

/** Answers `METHOD /path?query` (exact match first, then without the query); anything else is a 404. */
export type Routes = Record<string, CannedResponse | ((request: RecordedRequest) => CannedResponse)>;

/** A stand-in for `racksmith serve`'s REST API: canned JSON per route, every request recorded. */
export class FakeService {
  readonly requests: RecordedRequest[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(routes: Routes): Promise<FakeService> {
    let fake: FakeService | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const recorded = {
          method: request.method ?? "GET",
          url: request.url ?? "/",
          body: text ? (JSON.parse(text) as unknown) : undefined,
        };
        fake?.requests.push(recorded);
        const route =
          routes[`${recorded.method} ${recorded.url}`] ??
          routes[`${recorded.method} ${recorded.url.split("?")[0]}`];
        const answer = typeof route === "function" ? route(recorded) : route;
        const { status, body } = answer ?? {
          status: 404,
          body: {
            error: {
              code: "not_found",
              status: "NOT_FOUND",
              message: `no route ${recorded.url}`,
              details: {},
            },
          },
        };
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    fake = new FakeService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  /** The service error format. */
  static error(status: number, code: string, message: string): CannedResponse {
    return { status, body: { error: { code, status: "NOT_FOUND", message, details: {} } } };
  }

  reset(): void {
    this.requests.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
