import type { Logger } from "@racksmith/core";
import { pino } from "pino";
import type { LogLevel } from "../config/index.js";

/** Keys pino must never print, wherever a careless caller puts them. */
const REDACT_PATHS = [
  "password",
  "*.password",
  "Password",
  "*.Password",
  "token",
  "*.token",
  "authorization",
  "*.authorization",
];

/** The service's structured JSON logger (pino), to standard output unless told otherwise. */
export function createServiceLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: "racksmith" },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  };
  return destination ? pino(options, destination) : pino(options);
}
