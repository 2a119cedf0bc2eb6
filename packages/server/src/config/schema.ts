import { DEFAULT_ENGINE_CONFIG, ENGINE_CONFIG_SCHEMA, type EngineConfig } from "@racksmith/core/engine";
import type { SchemaObject } from "ajv";
import { AUTH_CONFIG_SCHEMA, type AuthConfig, pemFilesSchema } from "../auth/config.js";
import { SITE_EXPLORER_CONFIG_SCHEMA, type SiteExplorerConfig } from "../explorer/configSchema.js";
import { MONITOR_CONFIG_SCHEMA, type MonitorConfig } from "../health/monitor/config.js";
import { HEALTH_CONFIG_SCHEMA, type HealthConfig } from "../health/service/config.js";
import { INVENTORY_CONFIG_SCHEMA, type InventoryConfig } from "../inventory/configSchema.js";
import { LIFECYCLE_CONFIG_SCHEMA, type LifecycleConfig } from "../lifecycle/config.js";
import { SKU_VALIDATION_CONFIG_SCHEMA, type SkuValidationConfig } from "../sku/config.js";

/** `host:port`, `[ipv6]:port` or `:port` (all interfaces). */
const LISTEN_ADDRESS = "^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]*):[0-9]{1,5}$";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * JSON Schema of `racksmith.yaml`. Unknown keys are errors everywhere so a typo never silently falls back to
 * a default; every key has a description and a default (a test keeps it so). Later features add sections.
 */
export const configSchema: SchemaObject = {
  $id: "https://racksmith.dev/schemas/config.json",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string", description: "Editor hint; ignored." },
    plugins: {
      description: "Plugin packages or file paths to load, in order. Nothing else is loaded.",
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
      default: [],
    },
    drivers: {
      description:
        "Settings per BMC driver, keyed by driver name; each driver's schema checks its own section.",
      type: "object",
      additionalProperties: { type: "object" },
      default: {},
    },
    healthProbes: {
      description:
        "Settings per plugin health probe, keyed by probe name; each probe's schema checks its own section.",
      type: "object",
      additionalProperties: { type: "object" },
      default: {},
    },
    server: {
      description: "Where the service listens.",
      type: "object",
      additionalProperties: false,
      default: {},
      properties: {
        http: {
          description: "REST API, /metrics, /healthz and /readyz (host:port).",
          type: "string",
          pattern: LISTEN_ADDRESS,
          examples: ["127.0.0.1:8080", "0.0.0.0:8080", "[::1]:8080"],
          default: "127.0.0.1:8080",
        },
        grpc: {
          description: "gRPC API with reflection and grpc.health.v1 (host:port).",
          type: "string",
          pattern: LISTEN_ADDRESS,
          examples: ["127.0.0.1:50051", "0.0.0.0:50051", "[::1]:50051"],
          default: "127.0.0.1:50051",
        },
        tls: pemFilesSchema(
          "TLS for the REST and gRPC listeners (PEM files, relative to the config file). Default: absent, plain HTTP and gRPC (loopback only without an auth section).",
          {
            certFile: "The certificate chain (required, no default).",
            keyFile: "Its private key (required, no default).",
          },
          {
            clientCaFile: {
              type: "string",
              minLength: 1,
              description:
                "A CA every client must present a certificate of (mutual TLS; callers still need a token). Default: none, no client certificate asked for.",
            },
          },
        ),
        agentGrpc: {
          description:
            "The agent listener (host:port): the agents' gRPC services over mTLS, each agent with its machine's certificate. Default empty: a free port on server.grpc's host; agents learn it from DiscoverMachine.",
          type: "string",
          pattern: `^$|${LISTEN_ADDRESS}`,
          examples: ["0.0.0.0:50052"],
          default: "",
        },
        agentIdleCloseMs: {
          description:
            "The agent listener closes an agent's connection after it made no call for this long (ms); the agent reconnects at its next call. Each open agent connection holds ~70 KB of TLS and HTTP/2 state and a file descriptor. 0: never close.",
          type: "integer",
          minimum: 0,
          maximum: 2_147_483_647,
          default: 60_000,
        },
      },
    },
    database: {
      description: "Persistence: PostgreSQL when a URL is given, else embedded PGlite in dataDir.",
      type: "object",
      additionalProperties: false,
      default: {},
      properties: {
        url: {
          description:
            "PostgreSQL URL (postgres://user:password@host:5432/db); RACKSMITH_DATABASE_URL also sets it.",
          type: "string",
          pattern: "^$|^postgres(ql)?://",
          examples: ["postgres://racksmith@db.example:5432/racksmith"],
          default: "",
        },
        dataDir: {
          description: "Directory of the embedded PGlite database (relative to the config file).",
          type: "string",
          minLength: 1,
          default: ".racksmith/data",
        },
        schema: {
          description:
            "PostgreSQL schema holding Racksmith's tables (created if missing), so several deployments can share one database; empty: the server's search_path.",
          type: "string",
          pattern: "^$|^[a-z_][a-z0-9_]{0,62}$",
          examples: ["racksmith", "site_a"],
          default: "",
        },
        poolSize: {
          description:
            "PostgreSQL connections in the service's pool (LISTEN takes one more). Statements wait for a free one: raise it when racksmith_db_pool_waiting stays above 0 and the server has connections to spare.",
          type: "integer",
          minimum: 1,
          maximum: 1000,
          default: 10,
        },
        preparedStatements: {
          description:
            "Prepare the statements the service sends again and again (PostgreSQL). Turn off behind a pooler without protocol-level prepared statements (PgBouncer before 1.21 in transaction mode).",
          type: "boolean",
          default: true,
        },
        upkeepIntervalMs: {
          description:
            "PostgreSQL whose autovacuum is off: every this many ms the service vacuums and analyzes its own tables that changed past autovacuum's default thresholds (stale statistics leave prepared statements on plans made for empty tables). Nothing is done while autovacuum is on; 0 never.",
          type: "integer",
          minimum: 0,
          maximum: 2_147_483_647,
          default: 60_000,
        },
      },
    },
    auth: AUTH_CONFIG_SCHEMA,
    engine: { ...ENGINE_CONFIG_SCHEMA, description: "State engine timing and concurrency.", default: {} },
    inventory: INVENTORY_CONFIG_SCHEMA,
    siteExplorer: SITE_EXPLORER_CONFIG_SCHEMA,
    lifecycle: LIFECYCLE_CONFIG_SCHEMA,
    monitor: MONITOR_CONFIG_SCHEMA,
    health: HEALTH_CONFIG_SCHEMA,
    skuValidation: SKU_VALIDATION_CONFIG_SCHEMA,
    fabrics: {
      description:
        "Tenant fabric managers; each section is checked by the loaded plugin's schema. A fabric without a section is disabled (the default).",
      type: "object",
      additionalProperties: false,
      default: {},
      properties: {
        infiniband: {
          description:
            "InfiniBand fabric manager (e.g. @racksmith/fabric-ufm): `fabric` names the registered fabric (default: the only one loaded), the other keys are its config. Default: absent, InfiniBand disabled.",
          type: "object",
        },
        nvlink: {
          description:
            "NVLink fabric manager (e.g. @racksmith/fabric-nmxm): `fabric` names the registered fabric (default: the only one loaded), the other keys are its config. Default: absent, NVLink disabled.",
          type: "object",
        },
      },
    },
    log: {
      description: "Structured JSON logs on standard output.",
      type: "object",
      additionalProperties: false,
      default: {},
      properties: {
        level: {
          description: "Lowest level written.",
          type: "string",
          enum: [...LOG_LEVELS],
          default: "info",
        },
      },
    },
  },
};

export interface RacksmithConfig {
  plugins: string[];
  drivers: Record<string, Record<string, unknown>>;
  healthProbes: Record<string, Record<string, unknown>>;
  server: {
    http: string;
    grpc: string;
    agentGrpc?: string;
    agentIdleCloseMs?: number;
    tls?: { certFile: string; keyFile: string; clientCaFile?: string };
  };
  database: {
    url: string;
    dataDir: string;
    schema: string;
    poolSize: number;
    preparedStatements: boolean;
    upkeepIntervalMs: number;
  };
  /** Absent: authentication not configured (loopback only, a bootstrap admin token). */
  auth?: AuthConfig;
  engine: Partial<EngineConfig>;
  inventory: InventoryConfig;
  siteExplorer: SiteExplorerConfig;
  lifecycle: LifecycleConfig;
  monitor: MonitorConfig;
  health: HealthConfig;
  skuValidation: SkuValidationConfig;
  /** Absent sections are disabled fabrics. */
  fabrics: { infiniband?: Record<string, unknown>; nvlink?: Record<string, unknown> };
  log: { level: LogLevel };
}

export const DEFAULT_CONFIG: RacksmithConfig = {
  plugins: [],
  drivers: {},
  healthProbes: {},
  server: { http: "127.0.0.1:8080", grpc: "127.0.0.1:50051", agentGrpc: "", agentIdleCloseMs: 60_000 },
  database: {
    url: "",
    dataDir: ".racksmith/data",
    schema: "",
    poolSize: 10,
    preparedStatements: true,
    upkeepIntervalMs: 60_000,
  },
  engine: { ...DEFAULT_ENGINE_CONFIG },
  inventory: {},
  siteExplorer: {},
  lifecycle: {},
  monitor: {},
  health: {},
  skuValidation: {},
  fabrics: {},
  log: { level: "info" },
};
