import type { CliIo } from "../io.js";
import { renderRecord, renderTable } from "./table.js";

/** What a command produces; printed as a table/record for people or as one JSON document with `--json`. */
export type CommandOutput =
  | { kind: "list"; rows: readonly object[]; columns?: string[] }
  | { kind: "record"; value: object; human?: string }
  | { kind: "message"; text: string; json?: unknown };

export function printOutput(io: CliIo, output: CommandOutput, json: boolean): void {
  if (json) {
    const value =
      output.kind === "list"
        ? output.rows
        : output.kind === "record"
          ? output.value
          : (output.json ?? { message: output.text });
    io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  if (output.kind === "list") io.stdout.write(renderTable(output.rows, output.columns));
  else if (output.kind === "record")
    io.stdout.write(output.human ?? renderRecord(output.value as Record<string, unknown>));
  else io.stdout.write(`${output.text}\n`);
}
