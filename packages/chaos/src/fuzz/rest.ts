import { Pool } from "undici";
import { truncate } from "./mutations.js";
import type { RestCase } from "./restCases.js";
import type { Outcome } from "./tally.js";

/** Sends REST cases to one loopback origin over a bounded pool of connections. */
export interface RestSender {
  send(restCase: RestCase): Promise<Outcome>;
  close(): Promise<void>;
}

/** The only origin this fuzzer may talk to: a port on 127.0.0.1 (checked, so a wrong config cannot leak out). */
export function loopbackOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname !== "127.0.0.1") throw new Error(`refusing to fuzz ${url}: not 127.0.0.1`);
  return parsed.origin;
}

const HANG_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
const NOT_SENT_CODES = new Set(["UND_ERR_INVALID_ARG", "ERR_INVALID_ARG_TYPE", "ERR_INVALID_CHAR"]);

/** `authorization` goes with every case that does not set its own (a case may send a hostile one). */
export function restSender(
  url: string,
  options: { connections: number; timeoutMs: number; authorization: string },
): RestSender {
  const pool = new Pool(loopbackOrigin(url), {
    connections: options.connections,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return {
    send: async (restCase) => {
      // A second timer over undici's own: a request stuck before its headers start still ends as a hang.
      const signal = AbortSignal.timeout(options.timeoutMs + 2_000);
      try {
        const response = await pool.request({
          path: restCase.path,
          method: restCase.method as "GET",
          headers: { authorization: options.authorization, ...restCase.headers },
          body: restCase.body,
          signal,
        });
        if (response.statusCode < 500) {
          await response.body.dump();
          return { kind: "rest", status: response.statusCode, detail: "" };
        }
        // The error code of the body names the failure; the message is kept short.
        return { kind: "rest", status: response.statusCode, detail: errorDetail(await response.body.text()) };
      } catch (error) {
        const code = (error as { code?: string }).code ?? "";
        const message = (error as Error).message ?? String(error);
        if (HANG_CODES.has(code) || signal.aborted)
          return { kind: "hang", detail: `no answer in ${options.timeoutMs} ms` };
        if (NOT_SENT_CODES.has(code)) return { kind: "not-sent", detail: message };
        return { kind: "dropped", detail: truncate(`${code} ${message}`, 80) };
      }
    },
    close: () => pool.close(),
  };
}

/** `internal: <message>` from a JSON error body, else the body's start. */
function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as {
      error?: { code?: unknown; message?: unknown };
      code?: unknown;
      message?: unknown;
    };
    const error = parsed.error ?? parsed;
    return truncate(`${String(error.code ?? "")}: ${String(error.message ?? "")}`, 100);
  } catch {
    return truncate(text, 100);
  }
}
