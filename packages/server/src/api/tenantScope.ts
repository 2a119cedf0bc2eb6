import { RacksmithError } from "@racksmith/core";
import type { Caller } from "./access.js";
import { excerpt } from "./input/index.js";

/**
 * The tenant org a caller is limited to: a `tenant` caller's own (empty, matching nothing, should it have
 * none); undefined for the site's roles, which see every org.
 */
export function tenantScopeOf(caller: Caller | undefined): string | undefined {
  return caller?.role === "tenant" ? (caller.tenant ?? "") : undefined;
}

/** A tenant caller named another org: to a tenant, other orgs do not exist (404, never 403 with details). */
export class TenantNotFoundError extends RacksmithError {
  constructor(readonly tenantOrg: string) {
    super("tenant_not_found", "NOT_FOUND", `no tenant org ${excerpt(tenantOrg)}`, { details: { tenantOrg } });
  }
}

/**
 * The org a new object belongs to: the one requested, which a scoped (tenant) caller may leave out for its
 * own and may not make another.
 */
export function tenantOrgFor(scope: string | undefined, requested: string | undefined): string | undefined {
  if (scope === undefined) return requested;
  if (requested !== undefined && requested !== scope) throw new TenantNotFoundError(requested);
  return scope;
}

/**
 * The org a list is filtered to: the one asked for, and a tenant caller's own whatever it asked; null when a
 * tenant caller asks for another org's (there is nothing of it to see).
 */
export function listedTenantOrg(
  scope: string | undefined,
  asked: string | undefined,
): string | undefined | null {
  if (scope === undefined) return asked;
  return asked === undefined || asked === scope ? scope : null;
}

/** Whether an object of `tenantOrg` exists for a caller of `scope` (everything, for the site's roles). */
export function visibleToTenant(scope: string | undefined, tenantOrg: string): boolean {
  return scope === undefined || scope === tenantOrg;
}
