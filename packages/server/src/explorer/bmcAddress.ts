import { InvalidArgumentError } from "@racksmith/core";
import { excerpt } from "../api/index.js";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/**
 * Checks an explore-now address: an IPv4 or IPv6 address or a host name, optionally with a port, and no path
 * or user info. A scheme is allowed only when it is the configured one (`siteExplorer.bmc.scheme`), so
 * credentials never go over plain HTTP where BMCs speak HTTPS. Throws `invalid_argument` naming `address`.
 */
export function assertBmcAddress(address: string, scheme: string): void {
  const trimmed = address.trim();
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(trimmed);
  if (withScheme && withScheme[1]?.toLowerCase() !== scheme) {
    throw new InvalidArgumentError(
      `address ${JSON.stringify(excerpt(address))} uses ${withScheme[1]}:// but this site's BMCs use ${scheme}:// (siteExplorer.bmc.scheme); give the address without a scheme`,
      { details: { field: "address" } },
    );
  }
  if (!isHostWithPort(withScheme ? (withScheme[2] ?? "") : trimmed)) {
    throw new InvalidArgumentError(
      `address ${JSON.stringify(excerpt(address))} is not a BMC address: give an IP address or host name, optionally with :port, and no path`,
      { details: { field: "address" } },
    );
  }
}

function isHostWithPort(value: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIpv6(bracketed[1] ?? "") && validPort(bracketed[2]);
  if ((value.match(/:/g)?.length ?? 0) > 1) return isIpv6(value);
  const [host = "", port, ...rest] = value.split(":");
  if (rest.length > 0) return false;
  return (IPV4.test(host) || (HOST_NAME.test(host) && !/^[\d.]+$/.test(host))) && validPort(port);
}

function isIpv6(value: string): boolean {
  return IPV6.test(value) && value.includes(":") && value.length <= 45;
}

function validPort(port: string | undefined): boolean {
  if (port === undefined) return true;
  const value = Number(port);
  return /^\d{1,5}$/.test(port) && value >= 1 && value <= 65_535;
}
