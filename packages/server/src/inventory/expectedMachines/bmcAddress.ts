import { isIPv6 } from "node:net";
import { ipv4ToNumber } from "../ipv4.js";

/** A static BMC address as stored: `host[:port]` lower-cased, plus its IPv4 host as a number when it is one. */
export interface BmcAddress {
  address: string;
  ipv4: number | undefined;
}

const HOST_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Parses an IPv4 or IPv6 address or a host name with an optional port; a string is the reason it is not. */
export function parseBmcAddress(raw: string): BmcAddress | string {
  const text = raw.trim().toLowerCase();
  if (!text) return "must not be empty";
  if (text.includes("://")) return "must be a host or IP address with an optional :port, without a scheme";
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    const [, host = "", port] = bracketed;
    if (!isIPv6(host)) return `${JSON.stringify(host)} is not an IPv6 address`;
    return withPort(`[${host}]`, port, undefined);
  }
  if (isIPv6(text)) return { address: text, ipv4: undefined };
  const colon = text.lastIndexOf(":");
  const host = colon === -1 ? text : text.slice(0, colon);
  const port = colon === -1 ? undefined : text.slice(colon + 1);
  const ipv4 = ipv4ToNumber(host);
  if (ipv4 === undefined) {
    if (/^[\d.]+$/.test(host)) return `${JSON.stringify(host)} is not an IPv4 address`;
    if (host.length > 253 || !host.split(".").every((label) => HOST_LABEL.test(label))) {
      return `${JSON.stringify(host)} is not an IP address or host name`;
    }
  }
  return withPort(host, port, ipv4);
}

function withPort(host: string, port: string | undefined, ipv4: number | undefined): BmcAddress | string {
  if (port === undefined) return { address: host, ipv4 };
  const number = /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN;
  if (!(number >= 1 && number <= 65_535))
    return `port ${JSON.stringify(port)} is not a number from 1 to 65535`;
  return { address: `${host}:${number}`, ipv4 };
}
