import type { ExpectedMachineInput } from "@racksmith/core/server";

/** The expected-machines CSV columns, in the order `racksmith expected-machine import` reads them. */
export const EXPECTED_MACHINES_CSV_HEADER = [
  "bmcMac",
  "bmcAddress",
  "factoryUsername",
  "factoryPassword",
  "chassisSerial",
  "fallbackDpuSerials",
  "dpuMode",
  "driver",
  "labels",
  "skuId",
] as const;

/**
 * Expected machines as CSV: lists `;`-separated, labels `k=v;k=v`, fields quoted when they hold a comma, a
 * quote, a line break or edge spaces (unquoted cells are read trimmed).
 */
export function expectedMachinesCsv(machines: readonly ExpectedMachineInput[]): string {
  const rows = machines.map((machine) =>
    [
      machine.bmcMac,
      machine.bmcAddress,
      machine.factoryUsername,
      machine.factoryPassword,
      machine.chassisSerial,
      machine.fallbackDpuSerials?.join(";"),
      machine.dpuMode,
      machine.driver,
      machine.labels
        ? Object.entries(machine.labels)
            .map(([key, value]) => `${key}=${value}`)
            .join(";")
        : undefined,
      machine.skuId,
    ]
      .map(csvField)
      .join(","),
  );
  return `${[EXPECTED_MACHINES_CSV_HEADER.join(","), ...rows].join("\n")}\n`;
}

function csvField(value: string | undefined): string {
  if (value === undefined) return "";
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
