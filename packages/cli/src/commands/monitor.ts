import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import {
  BmcMonitor,
  createPluginHost,
  createServiceLogger,
  HealthCollectors,
  healthReportRecorder,
  loadConfig,
  migrate,
  openDatabase,
  openMonitorBmcAccess,
  parseListenAddress,
  resolveMonitorConfig,
  ServiceProbeCache,
} from "@racksmith/server";
import type { Command } from "commander";
import type { CliIo } from "../io.js";

interface MonitorFlags {
  config?: string;
  databaseUrl?: string;
  dataDir?: string;
  metrics: string;
  once?: boolean;
}

/** `racksmith monitor` (the catalogue names and describes it). */
export function defineMonitorCommand(monitor: Command, io: CliIo): void {
  monitor
    .option("--config <file>", "config file (default racksmith.yaml)")
    .option(
      "--database-url <url>",
      "PostgreSQL URL (default: database.url, RACKSMITH_DATABASE_URL, else embedded)",
    )
    .option("--data-dir <dir>", "embedded database directory (default .racksmith/data)")
    .option("--metrics <host:port>", "where /metrics is served", "127.0.0.1:9101")
    .option("--once", "run one pass over every BMC, print its figures and exit")
    .action(async (flags: MonitorFlags) => {
      const loaded = loadConfig({ ...(flags.config ? { file: flags.config } : {}), cwd: io.cwd });
      const { config } = loaded;
      const listen = parseListenAddress(flags.metrics, "--metrics");
      const logger = createServiceLogger(config.log.level, io.stdout as unknown as NodeJS.WritableStream);
      const { host } = await createPluginHost(loaded);
      const url = flags.databaseUrl ?? (config.database.url || io.env.RACKSMITH_DATABASE_URL || undefined);
      const database = await openDatabase(
        url
          ? { url, ...(config.database.schema ? { schema: config.database.schema } : {}) }
          : {
              dataDir: flags.dataDir
                ? resolve(io.cwd, flags.dataDir)
                : resolve(loaded.baseDir, config.database.dataDir),
            },
      );
      let registry: BmcMonitor["registry"] | undefined;
      const server = createServer(async (request, response) => {
        if (request.url !== "/metrics" || !registry) {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { "content-type": registry.contentType }).end(await registry.metrics());
      });
      try {
        await migrate(database);
        const serviceProbes = new ServiceProbeCache();
        const probes = () => host.healthProbes().map((probe) => probe.definition);
        const probeSettings = (name: string) => host.probeSettings(name);
        const monitor = new BmcMonitor({
          database: database.db,
          bmcAccess: await openMonitorBmcAccess({ config: loaded, database, host, logger, serviceProbes }),
          serviceProbes,
          recordReport: healthReportRecorder(database.db),
          logger,
          config: resolveMonitorConfig(config.monitor, loaded.baseDir),
          probes,
          probeSettings,
        });
        registry = monitor.registry;
        if (flags.once) {
          const result = await monitor.runOnce();
          io.stdout.write(`${JSON.stringify(result)}\n`);
          await monitor.stop();
          return;
        }
        await new Promise<void>((done, fail) => {
          server.once("error", fail).listen(listen.port, listen.host, done);
        });
        const { port } = server.address() as AddressInfo;
        io.stderr.write(`BMC monitor: metrics on http://${listen.host}:${port}/metrics\n`);
        // The plugins' collecting probes watch their machines until the monitor stops.
        const collectors = new HealthCollectors({
          database: database.db,
          probes,
          recordReport: healthReportRecorder(database.db),
          probeSettings,
          logger,
        });
        monitor.start();
        collectors.start();
        await io.untilStopped();
        await Promise.all([monitor.stop(), collectors.stop()]);
      } finally {
        server.close();
        await database.close();
      }
    });
}
