import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Every vendor driver of the monorepo, as an operator with all of them would configure. */
export const DRIVER_PLUGINS = [
  "@racksmith/driver-dell",
  "@racksmith/driver-hpe",
  "@racksmith/driver-lenovo",
  "@racksmith/driver-supermicro",
  "@racksmith/driver-nvidia-dpu",
];

/** bench/explore/: the config file must sit here so the plugin loader finds the workspace packages. */
const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));

export interface SiteSettings {
  fleetUrl: string;
  /** Vendor factory accounts shared by every BMC of the vendor (`fleet.factoryDefaults`). */
  factoryDefaults: Readonly<Record<string, { username: string; password: string }>>;
  databaseUrl: string | undefined;
  schema: string | undefined;
  bmcs: number;
  concurrency: number;
  perBmc: number;
  auth: "basic" | "session";
  rotate: boolean;
  maxIngestions: number;
  underlayPool: string | undefined;
}

export interface Site {
  /** bench/explore/.tmp-XXXXXX: config, mounted password files, the encrypted credential store. */
  dir: string;
  configFile: string;
  /** Removes the folder (idempotent, synchronous so it can run in an exit handler). */
  remove(): void;
}

/** Long enough that the loop runs once at start (with nothing registered) and then only when asked. */
export const INTERVAL_MS = 86_400_000;

/**
 * Writes a racksmith config (JSON, which the YAML loader reads; a .yaml name so no linter picks it up), the
 * site BMC root password and the vendors' factory passwords as mounted files (0600), into a fresh folder.
 */
export async function prepareSite(settings: SiteSettings): Promise<Site> {
  const dir = await mkdtemp(join(BENCH_DIR, ".tmp-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    await mkdir(join(dir, "secrets"), { mode: 0o700 });
    await secret(join(dir, "secrets", "site-bmc-root"), `Rs${randomBytes(9).toString("base64url")}`);
    const factoryDefaults: Record<string, { username: string; passwordFile: string }> = {};
    for (const [vendor, { username, password }] of Object.entries(settings.factoryDefaults)) {
      await secret(join(dir, "secrets", `factory-${vendor}`), password);
      factoryDefaults[vendor] = { username, passwordFile: `secrets/factory-${vendor}` };
    }
    const config = {
      plugins: DRIVER_PLUGINS,
      server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
      database: settings.databaseUrl
        ? { url: settings.databaseUrl, ...(settings.schema ? { schema: settings.schema } : {}) }
        : {},
      inventory: {
        ...(settings.underlayPool ? { dhcp: { underlayPool: settings.underlayPool } } : {}),
        credentials: {
          directory: "credentials",
          keyFile: "credentials.key",
          siteBmcRootPasswordFile: "secrets/site-bmc-root",
          factoryDefaults,
        },
      },
      siteExplorer: {
        intervalMs: INTERVAL_MS,
        budget: settings.bmcs,
        concurrency: settings.concurrency,
        maxIngestionsPerRun: settings.maxIngestions,
        rotateCredentials: settings.rotate,
        bmcProxy: settings.fleetUrl,
        bmc: { scheme: "http", maxConcurrency: settings.perBmc, auth: settings.auth },
      },
    };
    const configFile = join(dir, "racksmith.yaml");
    await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`);
    return { dir, configFile, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

async function secret(path: string, value: string): Promise<void> {
  await writeFile(path, `${value}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}
