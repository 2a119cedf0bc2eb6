import type { Logger } from "@racksmith/core";

export type LogLevel = "debug" | "info" | "warn" | "error";

/** One call to a captured logger (a child's bindings are merged into `fields`). */
export interface LogRecord {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
}

export interface CapturedLogs {
  /** Pass this wherever a `Logger` is taken; it and its children record into `records`. */
  logger: Logger;
  /** Every record, in order. */
  records: LogRecord[];
  /** Each record as one line, `level message {fields as JSON}`: what a test searches for leaked text. */
  lines(): string[];
}

/** A logger that keeps everything it is given, to assert on what was logged (and on what never is). */
export function captureLogger(): CapturedLogs {
  const records: LogRecord[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const write =
      (level: LogLevel) =>
      (fields: Record<string, unknown>, message: string): void => {
        records.push({ level, message, fields: { ...bindings, ...fields } });
      };
    return {
      debug: write("debug"),
      info: write("info"),
      warn: write("warn"),
      error: write("error"),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return {
    logger: make({}),
    records,
    lines: () => records.map((r) => `${r.level} ${r.message} ${JSON.stringify(r.fields)}`),
  };
}
