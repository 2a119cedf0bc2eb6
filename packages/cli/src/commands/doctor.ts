import { type DoctorCheck, type DoctorStatus, runDoctor } from "@racksmith/server";
import type { Command } from "commander";
import { ReportedFailure } from "../errors.js";
import type { CliIo } from "../io.js";

interface DoctorFlags {
  config?: string;
  databaseUrl?: string;
  dataDir?: string;
  json?: boolean;
}

const MARKS: Record<DoctorStatus, string> = { ok: "✓", warn: "!", fail: "✗", skip: "-" };

/** `racksmith doctor`: what `serve` needs, checked without starting it; exit 1 when a check failed. */
export function defineDoctorCommand(doctor: Command, io: CliIo): void {
  doctor
    .option("--config <file>", "config file (default racksmith.yaml)")
    .option(
      "--database-url <url>",
      "PostgreSQL URL (default: database.url, RACKSMITH_DATABASE_URL, else embedded)",
    )
    .option("--data-dir <dir>", "embedded database directory (default .racksmith/data)")
    .option("--json", "print JSON")
    .action(async (flags: DoctorFlags) => {
      const checks = await runDoctor({
        cwd: io.cwd,
        env: io.env,
        ...(flags.config ? { configFile: flags.config } : {}),
        ...(flags.databaseUrl ? { databaseUrl: flags.databaseUrl } : {}),
        ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
      });
      const ok = checks.every((check) => check.status !== "fail");
      io.stdout.write(
        flags.json ? `${JSON.stringify({ checks, ok }, null, 2)}\n` : renderDoctorReport(checks),
      );
      // The report is the output: runCli exits 1 without printing anything more.
      if (!ok) throw new ReportedFailure();
    });
}

/** One line per finding (`✓ config     racksmith.yaml: valid, 1 plugin`), its fix indented below, a summary. */
export function renderDoctorReport(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((check) => check.id.length));
  const lines = checks.flatMap((check) => [
    `${MARKS[check.status]} ${check.id.padEnd(width)}  ${check.detail}`,
    ...(check.fix ? [`  ${" ".repeat(width)}  fix: ${check.fix}`] : []),
  ]);
  return `${[...lines, "", doctorSummary(checks)].join("\n")}\n`;
}

/** `4 ok, 1 warning, 1 problem` (counts that are zero left out, but for ok). */
export function doctorSummary(checks: readonly DoctorCheck[]): string {
  const count = (status: DoctorStatus) => checks.filter((check) => check.status === status).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const warnings = count("warn");
  const problems = count("fail");
  const skipped = count("skip");
  return [
    `${count("ok")} ok`,
    warnings ? plural(warnings, "warning") : "",
    problems ? plural(problems, "problem") : "",
    skipped ? `${skipped} not run` : "",
  ]
    .filter(Boolean)
    .join(", ");
}
