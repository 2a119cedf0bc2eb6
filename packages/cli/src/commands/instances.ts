import type { Command } from "commander";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { readJsonFile } from "../jsonFile.js";
import { printOutput } from "../output/print.js";
import { renderRecord } from "../output/table.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

/** An instance as the service's REST API returns it (`/api/v1/instances`). */
export interface Instance {
  id: string;
  name: string;
  machineId: string;
  tenantOrg: string;
  instanceType: string | null;
  config: InstanceConfigBody;
  configVersion: number;
  status: {
    tenantState: string;
    hostState: string | null;
    configsSynced: { aggregate: "synced" | "pending"; subsystems: Record<string, "synced" | "pending"> };
  };
  createdAt: string;
  releaseRequestedAt: string | null;
  terminatedAt: string | null;
  releaseIssue: { category: string; summary: string } | null;
}

export interface InstanceConfigBody {
  network: { interfaces: Array<{ function: string; network: string }> };
  [key: string]: unknown;
}

interface ServerFlags {
  server?: string;
  json?: boolean;
}

const instancePath = (id: string) => `/api/v1/instances/${encodeURIComponent(id)}`;
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `synced`, or `pending (network, …)` naming the subsystems still behind. */
function syncedText(instance: Instance): string {
  const { aggregate, subsystems } = instance.status.configsSynced;
  const pending = Object.entries(subsystems)
    .filter(([, state]) => state !== "synced")
    .map(([name]) => name);
  return aggregate === "synced" || pending.length === 0 ? aggregate : `${aggregate} (${pending.join(", ")})`;
}

const interfacesText = (config: InstanceConfigBody | undefined) =>
  (config?.network?.interfaces ?? []).map((i) => `${i.function}=${i.network}`);

function instanceRecord(instance: Instance): string {
  return renderRecord({
    id: instance.id,
    name: instance.name,
    tenant: instance.tenantOrg,
    machine: instance.machineId,
    instanceType: instance.instanceType,
    tenantState: instance.status.tenantState,
    hostState: instance.status.hostState,
    configsSynced: syncedText(instance),
    configVersion: instance.configVersion,
    interfaces: interfacesText(instance.config),
    createdAt: instance.createdAt,
    releaseRequestedAt: instance.releaseRequestedAt,
    terminatedAt: instance.terminatedAt,
    releaseIssue:
      instance.releaseIssue && `${instance.releaseIssue.category}: ${instance.releaseIssue.summary}`,
  });
}

function instanceRow(instance: Instance) {
  return {
    id: instance.id,
    name: instance.name,
    tenant: instance.tenantOrg,
    machine: instance.machineId,
    tenantState: instance.status.tenantState,
    hostState: instance.status.hostState,
    configsSynced: syncedText(instance),
    createdAt: instance.createdAt,
  };
}

/** `pf0=tenant-a` → `{ function: "pf0", network: "tenant-a" }`. */
function parseInterface(spec: string): { function: string; network: string } {
  const match = /^([^=\s]+)=([^=\s]+)$/.exec(spec);
  if (!match) throw new UsageError(`--interface expects FUNCTION=NETWORK (e.g. pf0=tenant-a), got '${spec}'`);
  return { function: match[1] as string, network: match[2] as string };
}

/** A JSON config file (relative to where the command runs); a missing or malformed file is a usage error. */
function readConfigFile(file: string, io: CliIo): InstanceConfigBody {
  const parsed = readJsonFile(file, "--config", io);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(
      `--config ${file} must hold a JSON object (e.g. { "network": { "interfaces": [...] } })`,
    );
  }
  return parsed as InstanceConfigBody;
}

function showInstance(io: CliIo, instance: Instance, json: boolean): void {
  printOutput(io, { kind: "record", value: instance, human: instanceRecord(instance) }, json);
}

/** `racksmith instance …`: tenant instances on managed hosts, over the service's REST API. */
export function defineInstanceCommand(instance: Command, io: CliIo): void {
  addServerFlags(
    instance
      .command("allocate")
      .description("allocate an instance on a machine, or on any ready machine of an instance type")
      .option("--machine <id>", "the machine to allocate")
      .option("--instance-type <type>", "any ready machine of this instance type")
      .requiredOption("--tenant <org>", "the tenant organisation")
      .option("--name <name>", "instance name")
      .option("--interface <function=network>", "a DPU function on a tenant network (repeatable)", collect)
      .option("--config <file>", "the instance config as a JSON file"),
  ).action(
    async (
      flags: ServerFlags & {
        machine?: string;
        instanceType?: string;
        tenant: string;
        name?: string;
        interface?: string[];
        config?: string;
      },
    ) => {
      if (Boolean(flags.machine) === Boolean(flags.instanceType)) {
        throw new UsageError("give exactly one of --machine and --instance-type");
      }
      const interfaces = (flags.interface ?? []).map(parseInterface);
      let config = flags.config ? readConfigFile(flags.config, io) : undefined;
      // Interfaces on the command line replace the file's: they are the more specific request.
      if (interfaces.length > 0) config = { ...config, network: { ...config?.network, interfaces } };
      const body = {
        ...(flags.machine ? { machineId: flags.machine } : { instanceType: flags.instanceType }),
        tenantOrg: flags.tenant,
        ...(flags.name ? { name: flags.name } : {}),
        ...(config ? { config } : {}),
      };
      const created = await new ServiceClient(flags, io).request<Instance>("POST", "/api/v1/instances", body);
      showInstance(io, created, Boolean(flags.json));
    },
  );

  addServerFlags(
    instance
      .command("release")
      .description("release an instance (the host is cleaned up and returns to ready)")
      .argument("<id>")
      .option("--issue-category <category>", "report an issue with the host (with --issue-summary)")
      .option("--issue-summary <summary>", "what went wrong (with --issue-category)"),
  ).action(async (id: string, flags: ServerFlags & { issueCategory?: string; issueSummary?: string }) => {
    if (Boolean(flags.issueCategory) !== Boolean(flags.issueSummary)) {
      throw new UsageError("--issue-category and --issue-summary go together");
    }
    const body =
      flags.issueCategory && flags.issueSummary
        ? { issue: { category: flags.issueCategory, summary: flags.issueSummary } }
        : {};
    const released = await new ServiceClient(flags, io).request<Instance>(
      "POST",
      `${instancePath(id)}/release`,
      body,
    );
    showInstance(io, released, Boolean(flags.json));
  });

  addServerFlags(instance.command("show").description("one instance and its status").argument("<id>")).action(
    async (id: string, flags: ServerFlags) => {
      showInstance(
        io,
        await new ServiceClient(flags, io).get<Instance>(instancePath(id)),
        Boolean(flags.json),
      );
    },
  );

  addServerFlags(
    instance
      .command("list")
      .description("instances (terminated ones only with --all)")
      .option("--tenant <org>", "only this tenant's")
      .option("--machine <id>", "only this machine's")
      .option("--all", "include terminated instances"),
  ).action(async (flags: ServerFlags & { tenant?: string; machine?: string; all?: boolean }) => {
    const query = new URLSearchParams();
    if (flags.tenant) query.set("tenantOrg", flags.tenant);
    if (flags.machine) query.set("machineId", flags.machine);
    if (flags.all) query.set("includeTerminated", "true");
    const suffix = query.size > 0 ? `?${query}` : "";
    const { instances } = await new ServiceClient(flags, io).get<{ instances: Instance[] }>(
      `/api/v1/instances${suffix}`,
    );
    printOutput(
      io,
      { kind: "list", rows: flags.json ? instances : instances.map(instanceRow) },
      Boolean(flags.json),
    );
  });

  addServerFlags(
    instance
      .command("update-config")
      .description("replace an instance's config (optionally only if it is still at a version)")
      .argument("<id>")
      .requiredOption("--config <file>", "the new config as a JSON file")
      .option("--if-version <n>", "fail unless the config is at this version"),
  ).action(async (id: string, flags: ServerFlags & { config: string; ifVersion?: string }) => {
    let ifVersionMatch: number | undefined;
    if (flags.ifVersion !== undefined) {
      ifVersionMatch = Number(flags.ifVersion);
      if (!Number.isInteger(ifVersionMatch) || ifVersionMatch < 0) {
        throw new UsageError(`--if-version expects a whole number, got '${flags.ifVersion}'`);
      }
    }
    const config = readConfigFile(flags.config, io);
    const updated = await new ServiceClient(flags, io).request<Instance>(
      "PUT",
      `${instancePath(id)}/config`,
      {
        config,
        ...(ifVersionMatch === undefined ? {} : { ifVersionMatch }),
      },
    );
    showInstance(io, updated, Boolean(flags.json));
  });
}
