/** The roles a caller can hold (issue 17): what each may do is the authorization table's business. */
export const ROLES = ["admin", "operator", "tenant", "agent", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** How the caller proved who it is. */
export type CallerProof = "service-token" | "oidc" | "certificate";

/** Who makes a call, once authenticated. */
export interface Caller {
  /** The token's subject (`sub`), the certificate's machine, … — what the audit log names. */
  subject: string;
  role: Role;
  /** The tenant org a `tenant` caller is bound to. */
  tenant?: string;
  /** The machine an `agent` caller is bound to. */
  machine?: string;
  /** The service-issued token's id (`jti`), for revocation and the audit log. */
  tokenId?: string;
  proof: CallerProof;
}

/** What a call presents: the `authorization` header or metadata value, as sent. */
export interface CallCredentials {
  authorization?: string | undefined;
  /** The machine a gRPC request is about (its `machine_id` or `dpu_id`), for an agent's machine scope. */
  machine?: string | undefined;
  /**
   * On the agent listener (mTLS against the agents' CA): the client certificate TLS verified, by its subject
   * alternative names as Node lists them (`URI:spiffe://…`) and its notAfter (`valid_to`). It, not a token,
   * says who calls there.
   */
  verifiedPeer?: { subjectAltName: string | undefined; validTo?: string | undefined } | undefined;
}

/** One operation of either API, as the authorization table keys it. */
export type Operation =
  | { api: "rest"; method: string; route: string }
  | { api: "grpc"; service: string; method: string };

/** How a finished call ended, for the audit log. */
export interface CallOutcome {
  caller: Caller | undefined;
  operation: Operation;
  /** The path, or the request's target fields (ids), never a body. */
  target: string;
  /** HTTP status, or the gRPC status name. */
  result: string;
  requestId: string;
}

/**
 * The gate both transports ask before a handler runs: who calls (from the credentials), and whether the
 * authorization table lets that caller make the operation. The REST and gRPC layers only carry
 * credentials in and callers out; `auth/` implements it.
 */
export interface AccessGate {
  /** Whether the table has a rule for the operation (a server refuses to start with a route it lacks). */
  covers(operation: Operation): boolean;
  /**
   * The caller, when the rule admits it (undefined for a public operation called without credentials).
   * Throws `unauthenticated` (no or bad credentials) or `permission_denied` (the role may not).
   */
  admit(operation: Operation, credentials: CallCredentials): Promise<Caller | undefined>;
  /** Whether a call of this operation changes something the audit log records. */
  mutates(operation: Operation): boolean;
  /** Called once per mutating call, before its answer goes out (it never fails the call). */
  record?(outcome: CallOutcome): Promise<void>;
}

/** `GET /api/v1/machines/:id` or `racksmith.v1.Instances/AllocateInstance`. */
export function operationKey(operation: Operation): string {
  return operation.api === "rest"
    ? `${operation.method} ${operation.route}`
    : `${operation.service}/${operation.method}`;
}
