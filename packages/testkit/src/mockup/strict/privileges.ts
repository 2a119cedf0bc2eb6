import { accountPathOf, isManagerAccount } from "../accounts.js";
import { isOpenRequest } from "../auth.js";
import { isCollection } from "../collections.js";
import { isJsonObject, type JsonObject, linkOf, objectField, stringField } from "../json.js";
import type { MockupState } from "../mockupState.js";
import { methodNotAllowed, redfishError } from "../redfishMessages.js";
import { parseJsonBody } from "../requestBody.js";
import { childPath, lastPathSegment, resourceKey } from "../resourcePath.js";
import type { ServiceCore, ServiceRequest } from "../serviceCore.js";
import type { MockupResponse } from "../types.js";

/** The privileges of the Redfish Privileges schema (roles may add OEM ones, which are plain strings). */
type RedfishPrivilege =
  | "Login"
  | "ConfigureManager"
  | "ConfigureUsers"
  | "ConfigureSelf"
  | "ConfigureComponents";

const ACCOUNT_SERVICE = "/redfish/v1/AccountService";
const SESSIONS = "/redfish/v1/SessionService/Sessions";
const WRITES_TO_ROLES = new Set(["PATCH", "PUT", "DELETE"]);

/** The predefined roles of DSP0266, for a service whose tree has no Role resources. */
const PREDEFINED_ROLES: ReadonlyMap<string, readonly RedfishPrivilege[]> = new Map([
  ["Administrator", ["Login", "ConfigureManager", "ConfigureUsers", "ConfigureSelf", "ConfigureComponents"]],
  ["Operator", ["Login", "ConfigureSelf", "ConfigureComponents"]],
  ["ReadOnly", ["Login", "ConfigureSelf"]],
]);

/** The request as a `self` override sees it, to tell whether the target is the user's own. */
interface PrivilegeContext {
  readonly state: MockupState;
  readonly request: ServiceRequest;
  readonly user: string;
  readonly target: JsonObject | undefined;
}

interface PrivilegeRow {
  /** A path prefix, whole segments, case-insensitive; `/` matches every path. */
  readonly match: string;
  /** The methods the row covers; every method when absent. */
  readonly methods?: readonly string[];
  readonly privilege: RedfishPrivilege;
  /** When it holds, ConfigureSelf is enough too (the registry's "or ConfigureSelf" for one's own resource). */
  readonly self?: (context: PrivilegeContext) => boolean;
}

/**
 * The operation-to-privilege map, after the Redfish privilege registry (DSP8011) defaults; the first matching
 * row decides. Login (POST to Sessions) and the service root are open and never reach it.
 */
const REQUIRED_PRIVILEGES: readonly PrivilegeRow[] = [
  { match: "/", methods: ["GET", "HEAD"], privilege: "Login" },
  { match: ACCOUNT_SERVICE, methods: ["PATCH"], privilege: "ConfigureUsers", self: isOwnPasswordChange },
  { match: ACCOUNT_SERVICE, privilege: "ConfigureUsers" },
  { match: SESSIONS, methods: ["DELETE"], privilege: "ConfigureManager", self: isOwnSession },
  { match: "/redfish/v1/SessionService", privilege: "ConfigureManager" },
  { match: "/redfish/v1/Managers", privilege: "ConfigureManager" },
  { match: "/redfish/v1/EventService", privilege: "ConfigureManager" },
  { match: "/", privilege: "ConfigureComponents" },
];

/**
 * Strict rule `privileges`: refuses (403 InsufficientPrivilege) an operation the role of the authenticated user
 * lacks the privilege for, and any change to a predefined role (405). Undefined lets the request through.
 */
export async function checkPrivileges(
  core: ServiceCore,
  request: ServiceRequest,
): Promise<MockupResponse | undefined> {
  if (!core.rules.enforces("privileges")) return undefined;
  // Only writes look at their target: for a predefined role, or for the user's own account or session.
  const reading = request.method === "GET" || request.method === "HEAD";
  const target = reading ? undefined : await core.state.readJson(request.pathname);
  // Predefined roles are read-only whoever asks (DSP0266), even with authentication off.
  if (WRITES_TO_ROLES.has(request.method) && target && isPredefinedRole(target)) {
    return methodNotAllowed(request.method, request.pathname, "GET, HEAD");
  }
  const user = request.user;
  if (user === undefined || isOpenRequest(request.method, request.pathname)) return undefined;

  const row = REQUIRED_PRIVILEGES.find((candidate) => rowMatches(candidate, request));
  if (!row) return undefined;
  const own = row.self?.({ state: core.state, request, user, target }) ?? false;
  const accepted: readonly string[] = own ? [row.privilege, "ConfigureSelf"] : [row.privilege];
  const held = await privilegesOf(core.state, user);
  return accepted.some((privilege) => held.has(privilege))
    ? undefined
    : redfishError(403, "InsufficientPrivilege");
}

/** Privileges per user, kept while the state has no new write (reads far outnumber writes on a BMC). */
const privilegeCache = new WeakMap<
  MockupState,
  { generation: number; byUser: Map<string, ReadonlySet<string>> }
>();

async function privilegesOf(state: MockupState, user: string): Promise<ReadonlySet<string>> {
  let cached = privilegeCache.get(state);
  if (!cached || cached.generation !== state.generation) {
    cached = { generation: state.generation, byUser: new Map() };
    privilegeCache.set(state, cached);
  }
  const known = cached.byUser.get(user);
  if (known) return known;
  const privileges = await readPrivileges(state, user);
  // A write while reading them (another request) makes them stale: keep them only if none happened.
  if (cached.generation === state.generation) cached.byUser.set(user, privileges);
  return privileges;
}

/** The privileges the user's role grants (its Role resource, else the predefined defaults). */
async function readPrivileges(state: MockupState, user: string): Promise<ReadonlySet<string>> {
  const roleId = await roleIdOf(state, user);
  if (roleId === undefined) return new Set();
  const role = await roleResource(state, roleId);
  // A role captured without its privilege lists says nothing: the predefined defaults stand in.
  if (!role || !hasPrivilegeLists(role)) return new Set(PREDEFINED_ROLES.get(roleId) ?? []);
  return new Set([...stringsOf(role.AssignedPrivileges), ...stringsOf(role.OemPrivileges)]);
}

/**
 * The RoleId of the user's account (else the Id its `Links.Role` names); the service's own configured user has
 * no account resource and is Administrator.
 */
async function roleIdOf(state: MockupState, user: string): Promise<string | undefined> {
  const account = await accountOf(state, user);
  if (!account) return "Administrator";
  const linked = linkOf(objectField(account, "Links")?.Role);
  return stringField(account, "RoleId") ?? (linked ? lastPathSegment(linked) : undefined);
}

async function accountOf(state: MockupState, user: string): Promise<JsonObject | undefined> {
  // accountPathOf falls back to the collection when no member matches, so check the result.
  const account = await state.readJson(await accountPathOf(state, user));
  return account && isManagerAccount(account) && account.UserName === user ? account : undefined;
}

/** `Roles/<RoleId>` under the AccountService's Roles link, else the member of that collection with the RoleId. */
async function roleResource(state: MockupState, roleId: string): Promise<JsonObject | undefined> {
  const service = await state.readJson(ACCOUNT_SERVICE);
  const rolesPath = linkOf(service?.Roles) ?? `${ACCOUNT_SERVICE}/Roles`;
  const direct = await state.readJson(childPath(rolesPath, roleId));
  if (direct && isRole(direct)) return direct;
  const roles = await state.readJson(rolesPath);
  const members = roles && isCollection(roles) && Array.isArray(roles.Members) ? roles.Members : [];
  for (const member of members) {
    const path = linkOf(member);
    const role = path ? await state.readJson(path) : undefined;
    if (role && isRole(role) && (role.RoleId ?? role.Id) === roleId) return role;
  }
  return undefined;
}

function rowMatches(row: PrivilegeRow, request: ServiceRequest): boolean {
  if (row.methods && !row.methods.includes(request.method)) return false;
  const prefix = resourceKey(row.match);
  const key = resourceKey(request.pathname);
  return prefix === "/" || key === prefix || key.startsWith(`${prefix}/`);
}

/** A PATCH of the user's own account that sets nothing but `Password` (OData annotations aside). */
function isOwnPasswordChange({ request, user, target }: PrivilegeContext): boolean {
  if (!target || !isManagerAccount(target) || target.UserName !== user) return false;
  const parsed = parseJsonBody(request.body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return false;
  const changed = Object.keys(parsed.value).filter((name) => !name.startsWith("@odata."));
  return changed.length === 1 && changed[0] === "Password";
}

/** A session the user opened: its token's record, else the session resource's `UserName`. */
function isOwnSession({ state, request, user, target }: PrivilegeContext): boolean {
  const key = resourceKey(request.pathname);
  for (const session of state.sessions.values()) {
    if (resourceKey(session.path) === key) return session.userName === user;
  }
  return target !== undefined && !isCollection(target) && target.UserName === user;
}

function isRole(body: JsonObject): boolean {
  const type = stringField(body, "@odata.type");
  return type === undefined ? Array.isArray(body.AssignedPrivileges) : /^#Role\./.test(type);
}

function hasPrivilegeLists(role: JsonObject): boolean {
  return Array.isArray(role.AssignedPrivileges) || Array.isArray(role.OemPrivileges);
}

/** A role the specification makes read-only (also what the `Allow` of its resource says). */
export function isPredefinedRole(body: JsonObject): boolean {
  return isRole(body) && body.IsPredefined === true;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
