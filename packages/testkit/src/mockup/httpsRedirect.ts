import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { Socket } from "node:net";

/** The first byte of every TLS connection: a handshake record. */
const TLS_HANDSHAKE = 0x16;

/**
 * Lets an HTTPS port answer a plain-HTTP request with a redirect to HTTPS, as BMCs do, instead of failing the
 * TLS handshake: the first byte of each connection decides. The redirect never reads the request's
 * credentials. `enforce` is read per connection (strict mode's `httpsRedirect` rule); when it is false the
 * connection goes to TLS as before.
 */
export function redirectPlainHttp(server: HttpsServer, enforce: () => boolean): void {
  const tlsListeners = server.listeners("connection") as Array<(socket: Socket) => void>;
  const plain = createServer(answerRedirect);
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    socket.once("readable", () => {
      const first: Buffer | null = socket.read(1);
      if (first === null) return;
      socket.unshift(first);
      if (first[0] !== TLS_HANDSHAKE && enforce()) plain.emit("connection", socket);
      else for (const listener of tlsListeners) listener.call(server, socket);
    });
  });
}

function answerRedirect(request: IncomingMessage, response: ServerResponse): void {
  const host = request.headers.host ?? "127.0.0.1";
  // 308 keeps the method and body, so a PATCH or a login is sent again over HTTPS, not turned into a GET.
  response.writeHead(308, { location: `https://${host}${request.url ?? "/"}`, connection: "close" });
  response.end();
}
