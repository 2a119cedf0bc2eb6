import type { IbPartitionView } from "@racksmith/server";
import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

interface ServerFlags {
  server?: string;
  json?: boolean;
}

const partitionPath = (id: string) => `/api/v1/ib-partitions/${encodeURIComponent(id)}`;

/** What `--json` prints: `id`, `name`, `tenant`, `pkey`, `state`, then the rest. */
export function ibPartitionRecord(partition: IbPartitionView) {
  return {
    id: partition.id,
    name: partition.name,
    tenant: partition.tenantOrg,
    pkey: partition.pkey,
    state: partition.state,
    cause: partition.cause,
    requestedPkey: partition.requestedPkey,
    createdAt: partition.createdAt,
    deletedAt: partition.deletedAt,
  };
}

function show(io: CliIo, partition: IbPartitionView, json: boolean): void {
  printOutput(io, { kind: "record", value: ibPartitionRecord(partition) }, json);
}

/** `racksmith ib-partition …`: tenant InfiniBand partitions, over the service's REST API. */
export function defineIbPartitionCommand(command: Command, io: CliIo): void {
  addServerFlags(
    command
      .command("create")
      .description("create a partition with a pkey from the configured ranges")
      .requiredOption("--name <name>", "partition name")
      .requiredOption("--tenant <org>", "the tenant organisation")
      .option("--pkey <pkey>", "a specific pkey (0x-hex or decimal) inside the configured ranges"),
  ).action(async (flags: ServerFlags & { name: string; tenant: string; pkey?: string }) => {
    const created = await new ServiceClient(flags, io).request<IbPartitionView>(
      "POST",
      "/api/v1/ib-partitions",
      {
        name: flags.name,
        tenantOrg: flags.tenant,
        ...(flags.pkey ? { pkey: flags.pkey } : {}),
      },
    );
    show(io, created, Boolean(flags.json));
  });

  addServerFlags(
    command.command("list").description("partitions").option("--tenant <org>", "only this tenant's"),
  ).action(async (flags: ServerFlags & { tenant?: string }) => {
    const suffix = flags.tenant ? `?${new URLSearchParams({ tenantOrg: flags.tenant })}` : "";
    const { partitions } = await new ServiceClient(flags, io).get<{ partitions: IbPartitionView[] }>(
      `/api/v1/ib-partitions${suffix}`,
    );
    printOutput(io, { kind: "list", rows: partitions.map(ibPartitionRecord) }, Boolean(flags.json));
  });

  addServerFlags(command.command("show").description("one partition").argument("<id>")).action(
    async (id: string, flags: ServerFlags) => {
      show(
        io,
        await new ServiceClient(flags, io).get<IbPartitionView>(partitionPath(id)),
        Boolean(flags.json),
      );
    },
  );

  addServerFlags(
    command
      .command("delete")
      .description("delete a partition (refused while an instance uses it); its pkey is freed once unbound")
      .argument("<id>"),
  ).action(async (id: string, flags: ServerFlags) => {
    show(
      io,
      await new ServiceClient(flags, io).request<IbPartitionView>("DELETE", partitionPath(id)),
      Boolean(flags.json),
    );
  });
}
