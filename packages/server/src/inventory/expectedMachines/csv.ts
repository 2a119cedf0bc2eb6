import { EXPECTED_MACHINE_FIELDS, type ExpectedMachineInput } from "../contracts.js";
import { ExpectedMachinesFileError } from "../errors.js";

/** The CSV columns, in the documented order; a file may use any order and leave optional ones out. */
export const EXPECTED_MACHINE_CSV_COLUMNS = EXPECTED_MACHINE_FIELDS;

type Column = (typeof EXPECTED_MACHINE_CSV_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly Column[] = ["bmcMac", "chassisSerial"];

interface CsvCell {
  text: string;
  quoted: boolean;
}

interface CsvRecord {
  line: number;
  cells: CsvCell[];
}

/** RFC 4180 records: `,` separated, `"…"` quoting with `""` for a quote, quoted fields may span lines. */
function* csvRecords(text: string, file: string): Generator<CsvRecord> {
  let line = 1;
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  while (i < text.length) {
    const record: CsvRecord = { line, cells: [] };
    for (;;) {
      const cell: CsvCell = { text: "", quoted: false };
      if (text[i] === '"') {
        const opened = line;
        cell.quoted = true;
        i++;
        for (;;) {
          if (i >= text.length)
            throw new ExpectedMachinesFileError(file, "unterminated quoted field", opened);
          const char = text[i] as string;
          if (char === '"' && text[i + 1] === '"') {
            cell.text += '"';
            i += 2;
          } else if (char === '"') {
            i++;
            break;
          } else {
            if (char === "\n") line++;
            cell.text += char;
            i++;
          }
        }
        if (i < text.length && !/^(,|\r?\n)/.test(text.slice(i, i + 2))) {
          throw new ExpectedMachinesFileError(file, "a closing quote must end its field", line);
        }
      } else {
        while (i < text.length && text[i] !== "," && text[i] !== "\n" && !text.startsWith("\r\n", i)) {
          if (text[i] === '"') {
            throw new ExpectedMachinesFileError(
              file,
              "a quote inside an unquoted field; quote the whole field",
              line,
            );
          }
          cell.text += text[i];
          i++;
        }
        cell.text = cell.text.trim();
      }
      record.cells.push(cell);
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text.startsWith("\r\n", i)) i += 2;
      else if (text[i] === "\n") i++;
      line++;
      break;
    }
    const blank = record.cells.length === 1 && !record.cells[0]?.quoted && record.cells[0]?.text === "";
    if (!blank) yield record;
  }
}

function list(cell: string): string[] {
  return cell
    .split(";")
    .map((part) => part.trim())
    .filter(Boolean);
}

function labels(cell: string, file: string, line: number): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of list(cell)) {
    const equals = part.indexOf("=");
    if (equals < 1)
      throw new ExpectedMachinesFileError(file, `labels: ${JSON.stringify(part)} is not key=value`, line);
    result[part.slice(0, equals).trim()] = part.slice(equals + 1).trim();
  }
  return result;
}

function headerOf(record: CsvRecord, file: string): Column[] {
  const known = new Set<string>(EXPECTED_MACHINE_CSV_COLUMNS);
  const columns = record.cells.map((cell) => cell.text.trim());
  for (const column of columns) {
    if (!known.has(column)) {
      throw new ExpectedMachinesFileError(
        file,
        `unknown column ${JSON.stringify(column)} in the header; columns are ${EXPECTED_MACHINE_CSV_COLUMNS.join(",")}`,
        record.line,
      );
    }
  }
  const repeated = columns.find((column, i) => columns.indexOf(column) !== i);
  if (repeated)
    throw new ExpectedMachinesFileError(file, `column ${repeated} appears twice in the header`, record.line);
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.includes(column));
  if (missing.length)
    throw new ExpectedMachinesFileError(file, `the header lacks ${missing.join(" and ")}`, record.line);
  return columns as Column[];
}

/**
 * Expected machines from CSV: a header naming the columns (see `EXPECTED_MACHINE_CSV_COLUMNS`), one machine
 * per record. Unquoted cells are trimmed, empty cells are left out, `fallbackDpuSerials` is `;`-separated and
 * `labels` is `key=value;key=value`. Syntax errors name the line; field values are checked by the service.
 */
export function parseExpectedMachinesCsv(
  text: string,
  file = "expected-machines.csv",
): { machines: ExpectedMachineInput[]; lines: number[] } {
  const records = csvRecords(text, file);
  const first = records.next();
  if (first.done) throw new ExpectedMachinesFileError(file, `is empty; the first line must be the header`);
  const header = headerOf(first.value, file);
  const machines: ExpectedMachineInput[] = [];
  const lines: number[] = [];
  for (const record of records) {
    if (record.cells.length !== header.length) {
      throw new ExpectedMachinesFileError(
        file,
        `${record.cells.length} fields where the header has ${header.length}`,
        record.line,
      );
    }
    const row: Partial<Record<Column, unknown>> = {};
    header.forEach((column, i) => {
      const cell = record.cells[i] as CsvCell;
      if (cell.text === "") return;
      if (column === "fallbackDpuSerials") row[column] = list(cell.text);
      else if (column === "labels") row[column] = labels(cell.text, file, record.line);
      else row[column] = cell.text;
    });
    machines.push(row as unknown as ExpectedMachineInput);
    lines.push(record.line);
  }
  return { machines, lines };
}
