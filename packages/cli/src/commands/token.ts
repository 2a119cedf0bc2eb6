import { RacksmithError } from "@racksmith/core/errors";
import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, type ServerConnectionFlags, ServiceClient } from "../serviceClient.js";

interface ServerFlags extends ServerConnectionFlags {
  json?: boolean;
}

interface TokenRecordJson {
  id: string;
  subject: string;
  role: string;
  tenant: string | null;
  machine: string | null;
  description: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

interface CreateFlags extends ServerFlags {
  role: string;
  tenant?: string;
  machine?: string;
  subject?: string;
  description?: string;
  expires?: string;
}

const UNITS_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--expires`: a duration (`30m`, `12h`, `90d`) from now, or an ISO date-time. */
export function expiryOf(text: string, now = new Date()): string {
  const duration = /^(\d{1,6})([mhd])$/.exec(text);
  if (duration) {
    return new Date(
      now.getTime() + Number(duration[1]) * (UNITS_MS[duration[2] as string] ?? 0),
    ).toISOString();
  }
  const at = new Date(text);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    throw new RacksmithError(
      "invalid_argument",
      "INVALID_ARGUMENT",
      `"${text}" is neither a duration (30m, 12h, 90d) nor an ISO date-time`,
    );
  }
  return at.toISOString();
}

function row(record: TokenRecordJson) {
  return {
    id: record.id,
    role: record.role,
    bound: record.tenant ?? record.machine ?? "-",
    subject: record.subject,
    expires: record.expiresAt ?? "never",
    revoked: record.revokedAt ?? "-",
    description: record.description,
  };
}

/** `racksmith token …`: tokens the service issues (create, list, revoke) and who a token is. */
export function defineTokenCommand(command: Command, io: CliIo): void {
  addServerFlags(
    command
      .command("create")
      .description("issue a token; it is printed once and never stored by the service")
      .requiredOption("--role <role>", "admin, operator, tenant, agent or viewer")
      .option("--tenant <org>", "the org a tenant token is bound to (required for --role tenant)")
      .option("--machine <id>", "the machine an agent token is bound to (required for --role agent)")
      .option("--subject <name>", "who the token names in the audit log (default: the role and its binding)")
      .option("--description <text>", "what it is for")
      .option("--expires <when>", "a duration (30m, 12h, 90d) or an ISO date-time (default: never)"),
  ).action(async (flags: CreateFlags) => {
    const issued = await new ServiceClient(flags, io).request<{ token: string; record: TokenRecordJson }>(
      "POST",
      "/api/v1/auth/tokens",
      {
        role: flags.role,
        ...(flags.tenant ? { tenant: flags.tenant } : {}),
        ...(flags.machine ? { machine: flags.machine } : {}),
        ...(flags.subject ? { subject: flags.subject } : {}),
        ...(flags.description ? { description: flags.description } : {}),
        ...(flags.expires ? { expiresAt: expiryOf(flags.expires) } : {}),
      },
    );
    if (flags.json) {
      printOutput(io, { kind: "record", value: issued }, true);
      return;
    }
    io.stdout.write(`${issued.token}\n`);
    io.stderr.write(
      `token ${issued.record.id} (${issued.record.role}${issued.record.tenant ? ` of ${issued.record.tenant}` : ""}${issued.record.machine ? ` of ${issued.record.machine}` : ""}): shown once, keep it safe; revoke it with racksmith token revoke ${issued.record.id}\n`,
    );
  });

  addServerFlags(
    command.command("list").description("the tokens the service issued (never the tokens)"),
  ).action(async (flags: ServerFlags) => {
    const { tokens } = await new ServiceClient(flags, io).get<{ tokens: TokenRecordJson[] }>(
      "/api/v1/auth/tokens",
    );
    printOutput(io, { kind: "list", rows: flags.json ? tokens : tokens.map(row) }, Boolean(flags.json));
  });

  addServerFlags(
    command
      .command("revoke")
      .description("revoke a token: every replica refuses it from then on")
      .argument("<id>"),
  ).action(async (id: string, flags: ServerFlags) => {
    const record = await new ServiceClient(flags, io).request<TokenRecordJson>(
      "POST",
      `/api/v1/auth/tokens/${encodeURIComponent(id)}/revoke`,
    );
    printOutput(io, { kind: "record", value: flags.json ? record : row(record) }, Boolean(flags.json));
  });

  addServerFlags(
    command.command("whoami").description("who the service takes this command's token for"),
  ).action(async (flags: ServerFlags) => {
    const caller = await new ServiceClient(flags, io).get<Record<string, unknown>>("/api/v1/auth/whoami");
    printOutput(io, { kind: "record", value: caller }, Boolean(flags.json));
  });
}
