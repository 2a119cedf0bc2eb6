import { EXPECTED_MACHINE_CSV_COLUMNS, type ExpectedMachineInput } from "@racksmith/server";

/**
 * Expected machines as CSV: lists `;`-separated, labels `k=v;k=v`, fields quoted when they hold a comma, a
 * quote, a line break or edge spaces (unquoted cells are read trimmed).
 */
export function expectedMachinesCsv(machines: readonly ExpectedMachineInput[]): string {
  const rows = machines.map((machine) =>
    EXPECTED_MACHINE_CSV_COLUMNS.map((column) => csvField(cellText(machine[column]))).join(","),
  );
  return `${[EXPECTED_MACHINE_CSV_COLUMNS.join(","), ...rows].join("\n")}\n`;
}

/** A list as `a;b`, labels as `k=v;k=v`, anything else as written. */
function cellText(value: ExpectedMachineInput[keyof ExpectedMachineInput]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.join(";");
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([key, label]) => `${key}=${label}`)
      .join(";");
  }
  return String(value);
}

function csvField(value: string | undefined): string {
  if (value === undefined) return "";
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
