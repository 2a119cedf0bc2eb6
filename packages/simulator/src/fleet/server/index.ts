/**
 * Serving virtual BMCs: one listener routing on `Forwarded`/`Host` (or a port per BMC), lazily made services.
 */
export { type Listener, listen } from "./listen.js";
export { addressKey, forwardedHost, parseHost, type RequestedHost, requestedHost } from "./routing.js";
export { requestHandler, type ServeContext } from "./serveRequest.js";
export { VirtualBmc, type VirtualBmcServiceOptions, type VirtualBmcSummary } from "./virtualBmc.js";
