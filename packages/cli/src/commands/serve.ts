import { resolve } from "node:path";
import {
  createServiceLogger,
  loadConfig,
  migrate,
  openDatabase,
  type RunningService,
  startService,
} from "@racksmith/server";
import { EXAMPLE_MOCKUP, MockupServer } from "@racksmith/testkit";
import type { Command } from "commander";
import type { CliIo } from "../io.js";

interface ServeFlags {
  config?: string;
  databaseUrl?: string;
  dataDir?: string;
  http?: string;
  grpc?: string;
  demo?: boolean;
}

// A path given on the command line is relative to where the command runs; one in the config file, to the file.
function overrides(flags: ServeFlags, cwd: string) {
  return {
    ...(flags.databaseUrl ? { databaseUrl: flags.databaseUrl } : {}),
    ...(flags.dataDir ? { dataDir: resolve(cwd, flags.dataDir) } : {}),
    ...(flags.http ? { http: flags.http } : {}),
    ...(flags.grpc ? { grpc: flags.grpc } : {}),
  };
}

function databaseFlags(command: Command): Command {
  return command
    .option("--config <file>", "config file (default racksmith.yaml)")
    .option(
      "--database-url <url>",
      "PostgreSQL URL (default: database.url, RACKSMITH_DATABASE_URL, else embedded)",
    )
    .option("--data-dir <dir>", "embedded database directory (default .racksmith/data)");
}

/** `racksmith serve` (the catalogue names and describes it). */
export function defineServeCommand(serve: Command, io: CliIo): void {
  databaseFlags(serve)
    .option("--http <host:port>", "REST, /metrics, /healthz, /readyz (default 127.0.0.1:8080)")
    .option("--grpc <host:port>", "gRPC API (default 127.0.0.1:50051)")
    .option("--demo", "also serve the example BMC mockup on 127.0.0.1:8000 to try the CLI against")
    .action(async (flags: ServeFlags) => {
      const config = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
      // JSON log lines go to the CLI's standard output (a pino destination only needs `write`).
      const logger = createServiceLogger(
        config.config.log.level,
        io.stdout as unknown as NodeJS.WritableStream,
      );
      const service: RunningService = await startService({
        config,
        overrides: overrides(flags, io.cwd),
        env: io.env,
        logger,
      });
      const demo = flags.demo
        ? await MockupServer.start({ root: EXAMPLE_MOCKUP, port: 8000, auth: "basic" }).catch(
            async (error: unknown) => {
              await service.stop();
              throw error;
            },
          )
        : undefined;
      if (demo) {
        io.stderr.write(
          `Example BMC at ${demo.url} — try: racksmith redfish --address ${demo.url} --username root --password racksmith explore\n`,
        );
      }
      await io.untilStopped();
      await demo?.stop();
      await service.stop();
    });
}

/** `racksmith db migrate` (the catalogue names and describes `db`). */
export function defineDbCommand(db: Command, io: CliIo): void {
  databaseFlags(db.command("migrate").description("apply pending database migrations"))
    .option("--json", "print JSON")
    .action(async (flags: ServeFlags & { json?: boolean }) => {
      const config = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
      const url =
        flags.databaseUrl ?? (config.config.database.url || io.env.RACKSMITH_DATABASE_URL || undefined);
      const database = await openDatabase(
        url
          ? { url, ...(config.config.database.schema ? { schema: config.config.database.schema } : {}) }
          : {
              dataDir: flags.dataDir
                ? resolve(io.cwd, flags.dataDir)
                : resolve(config.baseDir, config.config.database.dataDir),
            },
      );
      try {
        const { applied } = await migrate(database);
        const text = applied.length
          ? `applied ${applied.join(", ")} to ${database.description}`
          : `${database.description} is up to date`;
        io.stdout.write(
          flags.json ? `${JSON.stringify({ database: database.description, applied })}\n` : `${text}\n`,
        );
      } finally {
        await database.close();
      }
    });
}
