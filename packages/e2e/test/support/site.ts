import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { DhcpLease } from "@racksmith/server";
import type { Fleet } from "@racksmith/simulator";
import { databaseSection, type E2eDatabase } from "./databases.js";
import { type ServeProcess, startServe } from "./serveProcess.js";

const require = createRequire(import.meta.url);
const DRIVERS = [
  "@racksmith/driver-dell",
  "@racksmith/driver-hpe",
  "@racksmith/driver-lenovo",
  "@racksmith/driver-supermicro",
  "@racksmith/driver-nvidia-dpu",
];

export interface SiteOptions {
  readonly fleet: Fleet;
  readonly database: E2eDatabase;
  /** The site BMC root password rotation sets. */
  readonly sitePassword: string;
  /** Settings of the `siteExplorer` section on top of the fleet's proxy and plain HTTP. */
  readonly siteExplorer?: Record<string, unknown>;
}

/**
 * A site as an operator sets it up: a folder with racksmith.yaml (every vendor driver, the fleet as the BMC
 * proxy), the site root password and the vendors' factory passwords as mounted 0600 files, and a database.
 */
export class Site {
  private service: ServeProcess | undefined;
  /** What the services before the current one printed. */
  private earlierOutput = "";

  private constructor(
    readonly dir: string,
    private readonly options: SiteOptions,
    private readonly dropDatabase: () => Promise<void>,
  ) {}

  static async create(options: SiteOptions): Promise<Site> {
    const dir = await mkdtemp(join(tmpdir(), "racksmith-e2e-"));
    const database = databaseSection(options.database);
    const site = new Site(dir, options, database.drop);
    await site.writeFiles(database.section);
    return site;
  }

  get configFile(): string {
    return join(this.dir, "racksmith.yaml");
  }

  /** The running service's REST URL. */
  get url(): string {
    if (!this.service) throw new Error("the site's service is not running");
    return this.service.url;
  }

  /** The running service's admin token. */
  get token(): string {
    if (!this.service) throw new Error("the site's service is not running");
    return this.service.token;
  }

  /** Starts `racksmith serve` (again: same config, credentials and database). */
  async start(): Promise<ServeProcess> {
    this.service = await startServe(this.configFile, this.dir);
    return this.service;
  }

  /** SIGKILLs the service: nothing it had in flight finishes on its side. */
  async kill(): Promise<void> {
    await this.service?.kill();
    this.earlierOutput += this.service?.output() ?? "";
    this.service = undefined;
  }

  /** Everything every service of this site printed, in order. */
  output(): string {
    return this.earlierOutput + (this.service?.output() ?? "");
  }

  /**
   * Registers the fleet as the operator and the DHCP relay would: every expected machine in one batch, then
   * one discovery per BMC; the fleet answers on the address the service hands out.
   */
  async register(): Promise<void> {
    const { fleet } = this.options;
    await this.call("POST", "/api/v1/expected-machines/batch", {
      machines: fleet.expectedMachines,
      mode: "add",
    });
    for (const discovery of fleet.discoveries) {
      const lease = await this.call<DhcpLease>("POST", "/api/v1/dhcp/discover", discovery);
      fleet.assign(lease.address, discovery.mac);
    }
  }

  /** A REST call to the service; a non-2xx answer throws with the service's error body. */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  async close(): Promise<void> {
    await this.service?.stop();
    this.service = undefined;
    await this.dropDatabase();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async writeFiles(database: Record<string, string>): Promise<void> {
    const { fleet, sitePassword } = this.options;
    await mkdir(join(this.dir, "factory"), { recursive: true });
    await this.secret("site-password", sitePassword);
    const factoryDefaults: Record<string, { username: string; passwordFile: string }> = {};
    for (const [vendor, credentials] of Object.entries(fleet.factoryDefaults)) {
      const passwordFile = join("factory", `${vendor}.password`);
      await this.secret(passwordFile, credentials.password);
      factoryDefaults[vendor] = { username: credentials.username, passwordFile };
    }
    const config = {
      plugins: DRIVERS.map((name) => dirname(require.resolve(`${name}/package.json`))),
      server: { http: "127.0.0.1:0", grpc: "127.0.0.1:0" },
      database,
      inventory: {
        credentials: {
          directory: "credentials",
          keyFile: "credentials.key",
          siteBmcRootPasswordFile: "site-password",
          factoryDefaults,
        },
      },
      siteExplorer: {
        bmcProxy: fleet.url,
        ...this.options.siteExplorer,
        bmc: { scheme: "http", ...(this.options.siteExplorer?.bmc as object | undefined) },
      },
    };
    // JSON is YAML: racksmith.yaml as any config file.
    await writeFile(this.configFile, `${JSON.stringify(config, null, 2)}\n`);
  }

  private async secret(name: string, value: string): Promise<void> {
    const path = join(this.dir, name);
    await writeFile(path, `${value}\n`, { mode: 0o600 });
    await chmod(path, 0o600);
  }
}
