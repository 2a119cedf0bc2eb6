import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";

/**
 * The JSON in a file a command line names (relative to where the command runs); `what` names it in errors
 * (`--report x.json`). An unreadable or malformed file is a usage error.
 */
export function readJsonFile(file: string, what: string, io: CliIo): unknown {
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${file} is not JSON: ${(error as Error).message}`);
  }
}
