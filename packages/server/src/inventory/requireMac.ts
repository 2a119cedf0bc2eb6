import { InvalidArgumentError, normalizeMac } from "@racksmith/core";
import { quoted } from "../api/index.js";

/** The normalised MAC of a path or request parameter; a clear 400 naming the field when it is not one. */
export function requireMac(value: unknown, field = "bmcMac"): string {
  const mac = normalizeMac(value);
  if (!mac) throw new InvalidArgumentError(`${field}: ${quoted(value)} is not a MAC address`);
  return mac;
}
