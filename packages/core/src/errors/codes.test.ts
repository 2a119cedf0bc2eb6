import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "./codes.js";
import { GRPC_CODE_BY_ERROR_STATUS, HTTP_STATUS_BY_ERROR_STATUS } from "./status.js";

const here = dirname(fileURLToPath(import.meta.url));
const README = join(here, "../../README.md");
const PACKAGES = join(here, "../../..");
const HEADING = "## Error codes";
const HEADER = ["code", "status", "HTTP", "gRPC", "meaning"];

const entries = Object.entries(ERROR_CODES);

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** The README's rows as the catalogue says they must read, in the catalogue's order. */
function expectedRows(): string[][] {
  return entries.map(([code, { status, meaning }]) => {
    return [
      `\`${code}\``,
      status,
      String(HTTP_STATUS_BY_ERROR_STATUS[status]),
      String(GRPC_CODE_BY_ERROR_STATUS[status]),
      meaning,
    ];
  });
}

/** The table to paste under `## Error codes` when the catalogue changed. */
function renderTable(): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(HEADER), line(HEADER.map(() => "---")), ...expectedRows().map(line)].join("\n");
}

/** The rows of the first table under the README's `## Error codes` heading (up to the next `## `). */
function readmeTable(): { header: string[]; rows: string[][] } {
  const text = readFileSync(README, "utf8");
  const start = text.split("\n").findIndex((line) => line.trim() === HEADING);
  expect(start, `${README} has no "${HEADING}" heading`).toBeGreaterThanOrEqual(0);
  const lines = text.split("\n").slice(start + 1);
  const end = lines.findIndex((line) => /^#{1,2} /.test(line));
  const tableLines = (end < 0 ? lines : lines.slice(0, end))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("|"));
  const cells = (line: string) =>
    line
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((cell) => cell.trim());
  const [header = "", , ...rows] = tableLines;
  return { header: cells(header), rows: rows.map(cells) };
}

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (["node_modules", "dist", "generated", "mockups"].includes(entry.name)) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(path);
  }
  return files;
}

describe("the error-code catalogue", () => {
  it("has snake_case codes with a one-line meaning each", () => {
    for (const [code, { meaning }] of entries) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(meaning, code).not.toMatch(/[|\n]/);
      expect(meaning.trim(), code).toBe(meaning);
      expect(meaning.length, code).toBeGreaterThan(0);
    }
  });

  it("is the table in packages/core/README.md (code | status | HTTP | gRPC | meaning)", () => {
    const { header, rows } = readmeTable();
    const fix = `replace the table under "${HEADING}" in packages/core/README.md with:\n\n${renderTable()}\n`;
    expect(header, fix).toEqual(HEADER);
    expect(rows, fix).toEqual(expectedRows());
  });

  it("gives each literal `super(code, status, …)` in packages/*/src and test the catalogue's status", () => {
    // The type system checks the code; this checks the status passed beside it. `redfish_http_error` is the
    // one code whose status follows the BMC's HTTP status, and it is never written as a literal pair.
    const pair = /\b(?:super|new\s+[A-Z]\w*)\(\s*"([a-z][a-z0-9_]*)"\s*,\s*"([A-Z_]+)"/g;
    const wrong: string[] = [];
    let checked = 0;
    for (const pkg of readdirSync(PACKAGES, { withFileTypes: true })) {
      if (!pkg.isDirectory()) continue;
      for (const folder of ["src", "test"]) {
        let files: string[];
        try {
          files = sourceFiles(join(PACKAGES, pkg.name, folder));
        } catch {
          continue;
        }
        for (const file of files) {
          for (const [, code = "", status] of readFileSync(file, "utf8").matchAll(pair)) {
            if (!isErrorCode(code)) continue;
            checked++;
            const expected = ERROR_CODES[code].status;
            if (status !== expected)
              wrong.push(`${file}: ${code} with ${status}, the catalogue says ${expected}`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});
