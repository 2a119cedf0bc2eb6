import { ExpectedMachinesFileError } from "../errors.js";
import { parseExpectedMachinesCsv } from "./csv.js";

/** The machines of an import file, unchecked (the service checks each row); `lines` for CSV records. */
export interface ExpectedMachinesFile {
  format: "json" | "csv";
  machines: unknown[];
  lines?: number[];
}

/** A JSON array of machines, or `{ "machines": [...] }` (the batch request body). */
export function parseExpectedMachinesJson(
  text: string,
  file = "expected-machines.json",
): ExpectedMachinesFile {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ExpectedMachinesFileError(file, `is not valid JSON: ${(error as Error).message}`);
  }
  const machines = Array.isArray(document) ? document : (document as { machines?: unknown } | null)?.machines;
  if (!Array.isArray(machines)) {
    throw new ExpectedMachinesFileError(
      file,
      'must be a JSON array of expected machines or { "machines": [...] }',
    );
  }
  return { format: "json", machines };
}

/** JSON or CSV by the file's extension, else by its first character (`[` or `{` is JSON). */
export function parseExpectedMachinesFile(text: string, file: string): ExpectedMachinesFile {
  const extension = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  const json = extension === "json" || (extension !== "csv" && /^\uFEFF?\s*[[{]/.test(text));
  return json
    ? parseExpectedMachinesJson(text, file)
    : { format: "csv", ...parseExpectedMachinesCsv(text, file) };
}
