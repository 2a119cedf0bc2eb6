import type { Command } from "commander";
import type { CliIo } from "../io.js";

/** Fills in a top-level command the catalogue created: its options, arguments, subcommands and actions. */
export type DefineCommand = (command: Command, io: CliIo) => void;

/** One top-level `racksmith` command: what `racksmith --help` shows of it, and how to load the rest. */
export interface CatalogueEntry {
  readonly name: string;
  readonly aliases: readonly string[];
  /** The command's one-line description: set here only, never by its module. */
  readonly description: string;
  /** What `racksmith --help` shows after the name (`[options]`, `<shell>`); a test keeps it commander's own. */
  readonly synopsis: string;
  /** Imports the command's module: only when the command line names the command (or for the full tree). */
  load(): Promise<DefineCommand>;
}

/** Every top-level command, in `racksmith --help` order. Keep this file free of static command imports. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: "redfish",
    aliases: [],
    description: "talk to one BMC directly through its driver",
    synopsis: "[options]",
    load: async () => (await import("./redfish/index.js")).defineRedfishCommand,
  },
  {
    name: "mockup",
    aliases: [],
    description: "serve and record DMTF Redfish mockups",
    synopsis: "",
    load: async () => (await import("./mockup.js")).defineMockupCommand,
  },
  {
    name: "drivers",
    aliases: [],
    description: "driver plugins",
    synopsis: "",
    load: async () => (await import("./drivers.js")).defineDriversCommand,
  },
  {
    name: "driver",
    aliases: [],
    description: "driver development",
    synopsis: "",
    load: async () => (await import("./drivers.js")).defineDriverCommand,
  },
  {
    name: "serve",
    aliases: [],
    description: "run the Racksmith service (REST, gRPC, state engine)",
    synopsis: "[options]",
    load: async () => (await import("./serve.js")).defineServeCommand,
  },
  {
    name: "db",
    aliases: [],
    description: "database maintenance",
    synopsis: "",
    load: async () => (await import("./serve.js")).defineDbCommand,
  },
  {
    name: "expected-machine",
    aliases: [],
    description: "machines Racksmith should manage, by BMC MAC (on the service)",
    synopsis: "",
    load: async () => (await import("./expectedMachines.js")).defineExpectedMachineCommand,
  },
  {
    name: "dhcp",
    aliases: [],
    description: "DHCP discoveries of BMCs (on the service)",
    synopsis: "",
    load: async () => (await import("./expectedMachines.js")).defineDhcpCommand,
  },
  {
    name: "credentials",
    aliases: [],
    description: "the BMC credential store (encrypted files; works on the store directly, not the service)",
    synopsis: "",
    load: async () => (await import("./credentials.js")).defineCredentialsCommand,
  },
  {
    name: "site-explorer",
    aliases: [],
    description: "explored BMC endpoints, exploration on demand, pairing and ingestion (on the service)",
    synopsis: "",
    load: async () => (await import("./siteExplorer.js")).defineSiteExplorerCommand,
  },
  {
    name: "machine",
    aliases: [],
    description: "managed hosts and their DPUs (on the service)",
    synopsis: "",
    load: async () => (await import("./siteExplorer.js")).defineMachineCommand,
  },
  {
    name: "simulate",
    aliases: [],
    description: "simulate a whole site (--hosts N), or hardware for a running service to find (fleet)",
    synopsis: "[options]",
    load: async () => (await import("./simulate.js")).defineSimulateCommand,
  },
  {
    name: "instance",
    aliases: [],
    description: "tenant instances on managed hosts (on the service)",
    synopsis: "",
    load: async () => (await import("./instances.js")).defineInstanceCommand,
  },
  {
    name: "lifecycle",
    aliases: [],
    description: "the managed-host lifecycle",
    synopsis: "",
    load: async () => (await import("./lifecycle.js")).defineLifecycleCommand,
  },
  {
    name: "health",
    aliases: [],
    description: "machine health and overrides (on the service)",
    synopsis: "",
    load: async () => (await import("./health.js")).defineHealthCommand,
  },
  {
    name: "monitor",
    aliases: [],
    description: "run the BMC monitor on its own: sensors, firmware, event logs of every host and DPU BMC",
    synopsis: "[options]",
    load: async () => (await import("./monitor.js")).defineMonitorCommand,
  },
  {
    name: "sku",
    aliases: [],
    description: "SKUs (hardware bills of materials) and their hosts (on the service; needs a SKU plugin)",
    synopsis: "",
    load: async () => (await import("./sku.js")).defineSkuCommand,
  },
  {
    name: "validation",
    aliases: [],
    description:
      "machine validation tests and their runs on hosts (on the service; needs a host test plugin)",
    synopsis: "",
    load: async () => (await import("./validation.js")).defineValidationCommand,
  },
  {
    name: "token",
    aliases: [],
    description: "bearer tokens the service issues: create, list, revoke, whoami (on the service)",
    synopsis: "",
    load: async () => (await import("./token.js")).defineTokenCommand,
  },
  {
    name: "audit",
    aliases: [],
    description: "the service's audit log of mutating calls (on the service)",
    synopsis: "",
    load: async () => (await import("./audit.js")).defineAuditCommand,
  },
  {
    name: "ib-partition",
    aliases: [],
    description: "tenant InfiniBand partitions (on the service; needs fabrics.infiniband)",
    synopsis: "",
    load: async () => (await import("./ibPartition.js")).defineIbPartitionCommand,
  },
  {
    name: "ufm",
    aliases: [],
    description: "the InfiniBand fabric manager (UFM), through the service",
    synopsis: "",
    load: async () => (await import("./ufm.js")).defineUfmCommand,
  },
  {
    name: "nvlink-partition",
    aliases: [],
    description: "tenant NVLink logical partitions (on the service; needs fabrics.nvlink)",
    synopsis: "",
    load: async () => (await import("./nvlinkPartition.js")).defineNvLinkPartitionCommand,
  },
  {
    name: "nmxm",
    aliases: [],
    description: "the NVLink fabric manager (NMX-M), through the service",
    synopsis: "",
    load: async () => (await import("./nmxm.js")).defineNmxmCommand,
  },
  {
    name: "completion",
    aliases: [],
    description: "print a shell completion script (bash, zsh or fish)",
    synopsis: "<shell>",
    load: async () => (await import("./completion/index.js")).defineCompletionCommand,
  },
  {
    name: "doctor",
    aliases: [],
    description:
      "check the config, plugins, secret file permissions, database and listen addresses, and say what to fix",
    synopsis: "[options]",
    load: async () => (await import("./doctor.js")).defineDoctorCommand,
  },
];

/** The entry a word names (its name or an alias), if any. */
export function catalogueEntry(word: string): CatalogueEntry | undefined {
  return CATALOGUE.find((entry) => entry.name === word || entry.aliases.includes(word));
}
