/**
 * The logger every core component accepts. It is the subset of pino's API we use, so a pino logger can be
 * passed as is; the default does nothing.
 */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  child?(bindings: Record<string, unknown>): Logger;
}

const noop = (): void => {};

export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

export function childLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  return logger.child ? logger.child(bindings) : logger;
}
