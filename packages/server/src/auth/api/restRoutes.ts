import type { FastifyInstance } from "fastify";
import { idParams, idString, type RestRoutes, ROLES } from "../../api/index.js";
import type { AuditLog } from "../audit/auditLog.js";
import type { ServiceTokens, TokenRequest } from "../tokens/serviceTokens.js";
import type { TokenRecord } from "../tokens/tokenStore.js";

const errors = {
  400: { $ref: "Error#" },
  401: { $ref: "Error#" },
  403: { $ref: "Error#" },
  404: { $ref: "Error#" },
};
const tags = ["auth"];
const text = { type: "string", minLength: 1, maxLength: 256 } as const;
const nullableText = { type: ["string", "null"] } as const;

const tokenRecordSchema = {
  $id: "TokenRecord",
  type: "object",
  properties: {
    id: { type: "string" },
    subject: { type: "string" },
    role: { type: "string", enum: [...ROLES] },
    tenant: nullableText,
    machine: nullableText,
    description: { type: "string" },
    createdBy: { type: "string" },
    createdAt: { type: "string", format: "date-time" },
    expiresAt: { type: ["string", "null"], format: "date-time" },
    revokedAt: { type: ["string", "null"], format: "date-time" },
  },
} as const;

const callerSchema = {
  type: "object",
  properties: {
    subject: { type: "string" },
    role: { type: "string" },
    tenant: { type: "string" },
    machine: { type: "string" },
    tokenId: { type: "string" },
    proof: { type: "string" },
  },
} as const;

const auditEntrySchema = {
  $id: "AuditEntry",
  type: "object",
  properties: {
    id: { type: "string" },
    at: { type: "string", format: "date-time" },
    actor: { type: "string" },
    role: { type: "string" },
    tenant: nullableText,
    operation: { type: "string" },
    target: { type: "string" },
    result: { type: "string" },
    requestId: { type: "string" },
  },
} as const;

interface CreateTokenBody {
  role: TokenRequest["role"];
  subject?: string;
  tenant?: string;
  machine?: string;
  description?: string;
  expiresAt?: string;
}

export interface AuthRoutesOptions {
  tokens: ServiceTokens;
  audit: AuditLog;
  /** Called after a token is revoked here, so this replica refuses it at once. */
  onRevoked(tokenId: string): void;
}

/** `/api/v1/auth/tokens` (issue, list, revoke service tokens), `/api/v1/auth/whoami` and `/api/v1/audit`. */
export function authRestRoutes(options: AuthRoutesOptions): RestRoutes {
  const { tokens, audit } = options;
  return (app: FastifyInstance) => {
    app.addSchema(tokenRecordSchema);
    app.addSchema(auditEntrySchema);

    app.post<{ Body: CreateTokenBody }>(
      "/api/v1/auth/tokens",
      {
        schema: {
          summary: "Issue a token (shown once: only its id is kept)",
          tags,
          body: {
            type: "object",
            additionalProperties: false,
            required: ["role"],
            properties: {
              role: { type: "string", enum: [...ROLES] },
              subject: text,
              tenant: idString,
              machine: idString,
              description: { type: "string", maxLength: 1024 },
              expiresAt: { type: "string", format: "date-time" },
            },
          },
          response: {
            201: {
              type: "object",
              properties: { token: { type: "string" }, record: { $ref: "TokenRecord#" } },
            },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { expiresAt, ...rest } = request.body;
        const issued = await tokens.issue(
          { ...rest, ...(expiresAt ? { expiresAt: new Date(expiresAt) } : {}) },
          request.caller?.subject ?? "anonymous",
        );
        return reply.code(201).send(issued);
      },
    );

    app.get(
      "/api/v1/auth/tokens",
      {
        schema: {
          summary: "The tokens this service issued (never the tokens themselves)",
          tags,
          response: {
            200: {
              type: "object",
              properties: { tokens: { type: "array", items: { $ref: "TokenRecord#" } } },
            },
            ...errors,
          },
        },
      },
      async (): Promise<{ tokens: TokenRecord[] }> => ({ tokens: await tokens.list() }),
    );

    app.post<{ Params: { id: string } }>(
      "/api/v1/auth/tokens/:id/revoke",
      {
        schema: {
          summary: "Revoke a token: every replica refuses it from then on",
          tags,
          params: idParams,
          response: { 200: { $ref: "TokenRecord#" }, ...errors },
        },
      },
      async (request) => {
        const record = await tokens.revoke(request.params.id);
        options.onRevoked(record.id);
        return record;
      },
    );

    app.get(
      "/api/v1/auth/whoami",
      {
        schema: {
          summary: "The caller as the service sees it: subject, role, tenant or machine",
          tags,
          response: { 200: callerSchema, ...errors },
        },
      },
      async (request) => request.caller ?? {},
    );

    app.get<{ Querystring: { since?: string; actor?: string; target?: string; limit?: number } }>(
      "/api/v1/audit",
      {
        schema: {
          summary: "The audit log: every mutating call, newest first",
          tags,
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: {
              since: { type: "string", format: "date-time" },
              actor: text,
              target: text,
              limit: { type: "integer", minimum: 1, maximum: 10_000, default: 100 },
            },
          },
          response: {
            200: {
              type: "object",
              properties: { entries: { type: "array", items: { $ref: "AuditEntry#" } } },
            },
            ...errors,
          },
        },
      },
      async (request) => {
        const { since, actor, target, limit = 100 } = request.query;
        return {
          entries: await audit.list({
            limit,
            ...(since ? { since: new Date(since) } : {}),
            ...(actor ? { actor } : {}),
            ...(target ? { target } : {}),
          }),
        };
      },
    );
  };
}
