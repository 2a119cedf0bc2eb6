import type { AccessGate, Caller, Role } from "../api/index.js";
import { ROLES } from "../api/index.js";

/** The caller a harness call without credentials acts as. */
export const HARNESS_ADMIN: Caller = { subject: "harness", role: "admin", proof: "service-token" };

/**
 * The access gate of a feature's API tests (never of a service): every operation is covered, a call without
 * credentials acts as admin, and `authorization: Test <role>[:<tenant or machine>]` acts as that caller, so
 * a feature's tenant scoping is tested without tokens. Authentication itself is tested in `auth/`.
 */
export function harnessGate(): AccessGate {
  return {
    covers: () => true,
    mutates: () => false,
    admit: async (_operation, credentials) => harnessCaller(credentials.authorization),
  };
}

function harnessCaller(authorization: string | undefined): Caller {
  const match = /^Test ([a-z]+)(?::(.+))?$/.exec(authorization ?? "");
  if (!match) return HARNESS_ADMIN;
  const role = match[1] as Role;
  if (!ROLES.includes(role)) throw new Error(`harness caller: no role ${role}`);
  const bound = match[2];
  return {
    subject: `harness-${role}${bound ? `:${bound}` : ""}`,
    role,
    ...(role === "tenant" && bound ? { tenant: bound } : {}),
    ...(role === "agent" && bound ? { machine: bound } : {}),
    proof: "service-token",
  };
}
