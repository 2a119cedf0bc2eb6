import type { Http2SecureServer, Http2Server, ServerHttp2Session } from "node:http2";
import type { Server, ServerCredentials } from "@grpc/grpc-js";
import { DEFAULT_MAX_REQUEST_BYTES } from "./requestLimits.js";

/**
 * The HTTP/2 receive windows the gRPC server grants its clients: how many bytes a client may send before it
 * must wait for the server's WINDOW_UPDATE, per stream (call) and per connection (all calls on it).
 */
export interface ReceiveWindows {
  streamBytes: number;
  connectionBytes: number;
}

/**
 * A request within the default byte limit arrives in one stream window; the connection window lets four of
 * them (or one 5 MB call and a few small ones) flow at once. Windows bound bytes in flight, not memory: the
 * server reads every request to its byte limit anyway, and consumes connection-level data as it arrives.
 */
export const RECEIVE_WINDOWS: ReceiveWindows = Object.freeze({
  streamBytes: DEFAULT_MAX_REQUEST_BYTES,
  connectionBytes: 4 * DEFAULT_MAX_REQUEST_BYTES,
});

type GrpcHttp2Server = Http2Server | Http2SecureServer;

/** The one grpc-js internal used here: the method that creates each HTTP/2 server (bound port or injector). */
interface GrpcServerInternals {
  createHttp2Server?: (this: Server, credentials: ServerCredentials) => GrpcHttp2Server;
}

/**
 * Raises the server's HTTP/2 receive windows from Node's default of 64 KiB, per stream and per connection.
 *
 * With 64 KiB a client sends a request at 64 KiB per round trip, and all calls of a connection share those
 * 64 KiB: a 5 MB request needs 80 round trips. A round trip is the network's plus an event-loop turn on each
 * side, so a client 100 ms away, or a server busy with other requests, takes tens of seconds for one 5 MB
 * call, and concurrent big calls on a connection starve each other past any deadline — the chaos fuzzer's
 * 5 MB calls hung this way, though each answered in 10 ms alone. grpc-js 1.14 has no server option for it
 * (`grpc-node.flow_control_window` is read by clients only; grpc/grpc-node#3058 adds it to servers), so
 * each HTTP/2 server it creates gets the windows here: `initialWindowSize` in its SETTINGS for streams, and
 * a connection-level WINDOW_UPDATE as each session starts. Throws when grpc-js no longer has that hook,
 * rather than silently serving with 64 KiB windows again.
 */
export function raiseReceiveWindows(server: Server, windows: ReceiveWindows = RECEIVE_WINDOWS): void {
  const internals = server as unknown as GrpcServerInternals;
  const createHttp2Server = internals.createHttp2Server;
  if (typeof createHttp2Server !== "function") {
    throw new Error(
      "@grpc/grpc-js no longer creates its HTTP/2 servers through createHttp2Server: raise the server's " +
        "HTTP/2 receive windows another way (its grpc-node.flow_control_window option, once servers read it)",
    );
  }
  internals.createHttp2Server = function (this: Server, credentials: ServerCredentials) {
    const http2Server = createHttp2Server.call(this, credentials);
    http2Server.updateSettings({ initialWindowSize: windows.streamBytes });
    http2Server.on("session", (session: ServerHttp2Session) => {
      if (!session.destroyed) session.setLocalWindowSize(windows.connectionBytes);
    });
    return http2Server;
  };
}
