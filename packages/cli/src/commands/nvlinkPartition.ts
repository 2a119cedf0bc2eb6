import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

/** A logical partition as the service's REST API returns it (`/api/v1/nvlink-partitions`). */
export interface NvLinkPartition {
  id: string;
  name: string;
  tenant: string;
  state: string;
  reason?: string;
  physicalPartitions: Array<{
    domain: string;
    nmxmId: string;
    number: number | null;
    name: string;
    gpus: string[];
  }>;
  createdAt: string;
  deletedAt: string | null;
}

interface ServerFlags {
  server?: string;
  json?: boolean;
}

const partitionPath = (id: string) => `/api/v1/nvlink-partitions/${encodeURIComponent(id)}`;

/** What `--json` prints: `id`, `name`, `tenant`, `state`, `physicalPartitions`, then the rest. */
export function nvlinkPartitionRecord(partition: NvLinkPartition, json: boolean) {
  return {
    id: partition.id,
    name: partition.name,
    tenant: partition.tenant,
    state: partition.state,
    // Tables show one cell: each domain's partition number and GPU count.
    physicalPartitions: json
      ? partition.physicalPartitions
      : partition.physicalPartitions.map((p) => `#${p.number ?? "?"} (${p.gpus.length} GPUs)`).join(", ") ||
        "-",
    ...(partition.reason ? { reason: partition.reason } : {}),
    createdAt: partition.createdAt,
    deletedAt: partition.deletedAt,
  };
}

function show(io: CliIo, partition: NvLinkPartition, json: boolean): void {
  printOutput(io, { kind: "record", value: nvlinkPartitionRecord(partition, json) }, json);
}

/** `racksmith nvlink-partition …`: tenants' NVLink logical partitions, over the service's REST API. */
export function defineNvLinkPartitionCommand(command: Command, io: CliIo): void {
  addServerFlags(
    command
      .command("create")
      .description("create a logical partition (Ready at once; NMX-M partitions are made as GPUs join)")
      .requiredOption("--tenant <org>", "the tenant organisation")
      .option("--name <name>", "partition name (default: its id)"),
  ).action(async (flags: ServerFlags & { name?: string; tenant: string }) => {
    const created = await new ServiceClient(flags, io).request<NvLinkPartition>(
      "POST",
      "/api/v1/nvlink-partitions",
      { tenantOrg: flags.tenant, ...(flags.name ? { name: flags.name } : {}) },
    );
    show(io, created, Boolean(flags.json));
  });

  addServerFlags(
    command.command("list").description("logical partitions").option("--tenant <org>", "only this tenant's"),
  ).action(async (flags: ServerFlags & { tenant?: string }) => {
    const suffix = flags.tenant ? `?${new URLSearchParams({ tenantOrg: flags.tenant })}` : "";
    const { partitions } = await new ServiceClient(flags, io).get<{ partitions: NvLinkPartition[] }>(
      `/api/v1/nvlink-partitions${suffix}`,
    );
    const json = Boolean(flags.json);
    printOutput(io, { kind: "list", rows: partitions.map((p) => nvlinkPartitionRecord(p, json)) }, json);
  });

  addServerFlags(
    command
      .command("show")
      .description("one logical partition with its physical partitions")
      .argument("<id>"),
  ).action(async (id: string, flags: ServerFlags) => {
    show(io, await new ServiceClient(flags, io).get<NvLinkPartition>(partitionPath(id)), Boolean(flags.json));
  });

  addServerFlags(
    command
      .command("delete")
      .description(
        "delete a logical partition (refused while an instance uses it); NMX-M partitions are removed",
      )
      .argument("<id>"),
  ).action(async (id: string, flags: ServerFlags) => {
    show(
      io,
      await new ServiceClient(flags, io).request<NvLinkPartition>("DELETE", partitionPath(id)),
      Boolean(flags.json),
    );
  });
}
