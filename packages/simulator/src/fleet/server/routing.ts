import type { IncomingHttpHeaders } from "node:http";

/** A host as a request names it: hostname (lower-case, IPv6 without brackets) and optional port. */
export interface RequestedHost {
  readonly hostname: string;
  readonly port: string | undefined;
}

/**
 * The BMC a request is for: the `host` parameter of its `Forwarded` header (RFC 7239; the first element that
 * has one — what a BMC proxy and RedfishClient `connectVia` send), else its `Host` header.
 */
export function requestedHost(headers: IncomingHttpHeaders): RequestedHost | undefined {
  const forwarded = headers.forwarded;
  const fromForwarded = forwardedHost(Array.isArray(forwarded) ? forwarded.join(",") : forwarded);
  const raw = fromForwarded ?? headers.host;
  return raw ? parseHost(raw) : undefined;
}

/** The `host` parameter of a `Forwarded` header value, unquoted; undefined when no element has one. */
export function forwardedHost(value: string | undefined): string | undefined {
  if (!value) return undefined;
  for (const element of splitOutsideQuotes(value, ",")) {
    for (const pair of splitOutsideQuotes(element, ";")) {
      const equals = pair.indexOf("=");
      if (equals < 0 || pair.slice(0, equals).trim().toLowerCase() !== "host") continue;
      const host = unquote(pair.slice(equals + 1).trim());
      if (host) return host;
    }
  }
  return undefined;
}

/** `10.0.0.5`, `10.0.0.5:8443`, `[fd00::5]:443`, `fd00::5`, `bmc-7.lab` → hostname and port. */
export function parseHost(raw: string): RequestedHost | undefined {
  const text = raw.trim().toLowerCase();
  if (!text) return undefined;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    if (close < 0) return undefined;
    const rest = text.slice(close + 1);
    return { hostname: text.slice(1, close), port: /^:\d+$/.test(rest) ? rest.slice(1) : undefined };
  }
  const colons = text.split(":").length - 1;
  if (colons === 1) {
    const [hostname = "", port = ""] = text.split(":");
    return { hostname, port: /^\d+$/.test(port) ? port : undefined };
  }
  return { hostname: text, port: undefined };
}

/** The lookup key of an address with a port (`10.0.0.5:8443`, `[fd00::5]:443`) or without. */
export function addressKey(host: RequestedHost, withPort = true): string {
  const name = host.hostname.includes(":") ? `[${host.hostname}]` : host.hostname;
  return withPort && host.port ? `${name}:${host.port}` : name;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "\\" && quoted) {
      current += char + (text[i + 1] ?? "");
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  return value.slice(1, value.endsWith('"') ? -1 : undefined).replace(/\\(.)/g, "$1");
}
