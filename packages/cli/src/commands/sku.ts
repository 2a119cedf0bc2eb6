import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { readJsonFile } from "../jsonFile.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

/** A SKU as the service's REST API returns it (`/api/v1/skus/{id}`; lists leave `document` out). */
export interface SkuJson {
  id: string;
  schemaVersion: number;
  description: string;
  createdAt: string;
  hostIds: string[];
  document?: Record<string, unknown>;
}

/** A host's SKU (`/api/v1/machines/{id}/sku`). */
export interface HostSkuJson {
  hostId: string;
  skuId: string | null;
  assignedBy: string | null;
  assignedAt: string | null;
  verifyRequestedAt: string | null;
  verdict: {
    kind: string;
    skuId?: string | null;
    mismatches?: Array<{ component: string; message: string }>;
  } | null;
  verifiedAt: string | null;
  state: string;
}

interface ServerFlags {
  server?: string;
  json?: boolean;
}

const skuPath = (id: string) => `/api/v1/skus/${encodeURIComponent(id)}`;
const hostSkuPath = (host: string) => `/api/v1/machines/${encodeURIComponent(host)}/sku`;

/** People see the hosts counted and the document left out (`--json` has everything). */
function showSku(io: CliIo, sku: SkuJson, json: boolean): void {
  const { document: _document, hostIds, ...rest } = sku;
  printOutput(
    io,
    { kind: "record", value: json ? sku : { ...rest, hosts: hostIds.join(", ") || "-" } },
    json,
  );
}

/** People see the verdict as one line per mismatch. */
function showHostSku(io: CliIo, host: HostSkuJson, json: boolean): void {
  const { verdict, ...rest } = host;
  const mismatches = verdict?.mismatches?.map((m) => m.message) ?? [];
  printOutput(
    io,
    {
      kind: "record",
      value: json
        ? host
        : { ...rest, verdict: verdict?.kind ?? "-", ...(mismatches.length ? { mismatches } : {}) },
    },
    json,
  );
}

/** `racksmith sku …`: SKUs (hardware bills of materials) and their hosts, over the service's REST API. */
export function defineSkuCommand(command: Command, io: CliIo): void {
  const client = (flags: ServerFlags) => new ServiceClient(flags, io);

  addServerFlags(command.command("list").description("every SKU and how many hosts it has")).action(
    async (flags: ServerFlags) => {
      const { skus } = await client(flags).get<{ skus: SkuJson[] }>("/api/v1/skus");
      const json = Boolean(flags.json);
      const rows = json ? skus : skus.map(({ hostIds, ...sku }) => ({ ...sku, hosts: hostIds.length }));
      printOutput(
        io,
        { kind: "list", rows, columns: ["id", "schemaVersion", "hosts", "description", "createdAt"] },
        json,
      );
    },
  );

  addServerFlags(
    command.command("show").description("one SKU: its components (--json) and hosts").argument("<sku>"),
  ).action(async (id: string, flags: ServerFlags) => {
    showSku(io, await client(flags).get<SkuJson>(skuPath(id)), Boolean(flags.json));
  });

  addServerFlags(
    command
      .command("generate")
      .description("the SKU a host's inventory describes, as JSON for `sku create` (nothing is stored)")
      .argument("<host>")
      .option("--id <id>", "the SKU's id (default: <vendor>.<model>.<gpu|cpu>.1)")
      .option("--description <text>", "what the SKU is"),
  ).action(async (host: string, flags: ServerFlags & { id?: string; description?: string }) => {
    const document = await client(flags).request<object>("POST", "/api/v1/skus/generate", {
      machineId: host,
      ...(flags.id ? { id: flags.id } : {}),
      ...(flags.description ? { description: flags.description } : {}),
    });
    // JSON either way: it is what `sku create` reads.
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  });

  addServerFlags(
    command
      .command("create")
      .description(
        "create a SKU from a JSON file (as `sku generate` prints); matching hosts without one get it",
      )
      .argument("<file>"),
  ).action(async (file: string, flags: ServerFlags) => {
    const body = readJsonFile(file, "SKU file", io);
    showSku(io, await client(flags).request<SkuJson>("POST", "/api/v1/skus", body), Boolean(flags.json));
  });

  addServerFlags(
    command
      .command("assign")
      .description("assign a SKU to hosts (replacing theirs); each is verified against it")
      .argument("<sku>")
      .argument("<hosts...>"),
  ).action(async (id: string, hosts: string[], flags: ServerFlags) => {
    const sku = await client(flags).request<SkuJson>("POST", `${skuPath(id)}/assign`, { machineIds: hosts });
    showSku(io, sku, Boolean(flags.json));
  });

  addServerFlags(
    command
      .command("unassign")
      .description("remove a host's SKU; BOM validation looks for one again")
      .argument("<host>"),
  ).action(async (host: string, flags: ServerFlags) => {
    showHostSku(
      io,
      await client(flags).request<HostSkuJson>("DELETE", hostSkuPath(host)),
      Boolean(flags.json),
    );
  });

  addServerFlags(
    command
      .command("verify")
      .description("verify a Ready or BOM-validating host against its SKU again, from a fresh inventory")
      .argument("<host>"),
  ).action(async (host: string, flags: ServerFlags) => {
    const shown = await client(flags).request<HostSkuJson>("POST", `${hostSkuPath(host)}/verify`);
    showHostSku(io, shown, Boolean(flags.json));
  });

  addServerFlags(
    command.command("status").description("a host's SKU, its last verdict and its state").argument("<host>"),
  ).action(async (host: string, flags: ServerFlags) => {
    showHostSku(io, await client(flags).get<HostSkuJson>(hostSkuPath(host)), Boolean(flags.json));
  });

  addServerFlags(
    command.command("delete").description("delete a SKU no host is assigned to").argument("<sku>"),
  ).action(async (id: string, flags: ServerFlags) => {
    showSku(io, await client(flags).request<SkuJson>("DELETE", skuPath(id)), Boolean(flags.json));
  });
}
