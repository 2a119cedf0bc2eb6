/** Column-aligned text table; cells are stringified, nested values shown as compact JSON. */
export function renderTable(rows: readonly object[], columns?: readonly string[]): string {
  if (rows.length === 0) return "(none)\n";
  const keys = columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => keys.map((key) => cellText((row as Record<string, unknown>)[key])));
  const widths = keys.map((key, i) => Math.max(key.length, ...cells.map((line) => line[i]?.length ?? 0)));
  const format = (values: readonly string[]): string =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const header = format(keys.map((key) => key.replace(/([a-z])([A-Z])/g, "$1 $2").toUpperCase()));
  return `${[header, ...cells.map(format)].join("\n")}\n`;
}

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return "-";
  if (Array.isArray(value)) return value.map(cellText).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Key/value listing of one object (for reads that return a single thing). */
export function renderRecord(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  const width = Math.max(0, ...keys.map((key) => key.length));
  return `${keys.map((key) => `${key.padEnd(width)}  ${cellText(record[key])}`).join("\n")}\n`;
}
