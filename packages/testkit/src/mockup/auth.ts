import { admitLogin, isLockedOut } from "./accountLockout.js";
import { accountPathOf, isManagerAccount } from "./accounts.js";
import { isJsonObject } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { redfishError } from "./redfishMessages.js";
import { resourceKey } from "./resourcePath.js";
import type { MockupServiceSettings } from "./serviceCore.js";
import type { MockupResponse } from "./types.js";

export const SESSIONS_PATH = "/redfish/v1/SessionService/Sessions";

/** Readable without credentials in every mode, as on real BMCs. */
const OPEN_GETS = new Set(["/redfish", "/redfish/v1", "/redfish/v1/$metadata", "/redfish/v1/odata"]);
const SESSIONS_KEY = resourceKey(SESSIONS_PATH);

export const BASIC_REALM = 'Basic realm="racksmith-mockup"';

export interface AuthRequest {
  readonly method: string;
  readonly pathname: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed body, to recognise the one request allowed before a forced password change. */
  readonly body: unknown;
}

export type AuthResult =
  | { readonly ok: true; readonly user: string | undefined }
  | { readonly ok: false; readonly response: MockupResponse };

/** True for the requests that need no credentials (service root, `$metadata`, `odata`, login). */
export function isOpenRequest(method: string, pathname: string): boolean {
  const key = resourceKey(pathname);
  if (method === "GET" || method === "HEAD") return OPEN_GETS.has(key);
  return method === "POST" && key === SESSIONS_KEY;
}

/**
 * Checks a request against the auth mode: `basic` wants valid Basic credentials; `session` and
 * `password-change-required` take a session token or Basic credentials (real BMCs accept both). In
 * `password-change-required` a user still owing a password change gets 403 PasswordChangeRequired for everything
 * except the open requests and a PATCH of its own account's `Password`.
 */
export async function authenticate(
  state: MockupState,
  settings: Pick<MockupServiceSettings, "authMode" | "lockout">,
  request: AuthRequest,
): Promise<AuthResult> {
  const mode = settings.authMode;
  if (mode === "none") return { ok: true, user: undefined };
  const open = isOpenRequest(request.method, request.pathname);
  // Open requests are answered whatever credentials they carry, so (as on real BMCs) a wrong Basic password
  // on them is not a failed login: it never counts toward lockout. A login (POST to Sessions) counts when its
  // body is checked.
  const user =
    (mode === "basic" ? undefined : userOfToken(state, request.headers["x-auth-token"])) ??
    userOfBasic(state, settings, request.headers.authorization, !open);
  if (open) return { ok: true, user };
  if (user === undefined) {
    return {
      ok: false,
      response: redfishError(401, "NoValidSession", [], { headers: { "www-authenticate": BASIC_REALM } }),
    };
  }
  if (
    mode === "password-change-required" &&
    state.passwordChangeRequired.has(user) &&
    !(await isOwnPasswordChange(state, user, request))
  ) {
    const account = await accountPathOf(state, user);
    return { ok: false, response: redfishError(403, "PasswordChangeRequired", [account]) };
  }
  return { ok: true, user };
}

function userOfToken(state: MockupState, token: string | undefined): string | undefined {
  return token ? state.sessions.get(token)?.userName : undefined;
}

/** The user of valid Basic credentials; `counted` applies the lockout policy (a wrong password counts). */
function userOfBasic(
  state: MockupState,
  settings: Pick<MockupServiceSettings, "lockout">,
  header: string | undefined,
  counted: boolean,
): string | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header?.trim() ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const valid = counted
    ? verifyPassword(state, settings, user, password)
    : state.accounts.get(user) === password && !isLockedOut(state, settings.lockout, user);
  return valid ? user : undefined;
}

/** True when `user` exists, is not locked out and `password` is its password (a wrong one counts). */
export function verifyPassword(
  state: MockupState,
  settings: Pick<MockupServiceSettings, "lockout">,
  user: string,
  password: string | undefined,
): boolean {
  const expected = state.accounts.get(user);
  if (expected === undefined) return false;
  return admitLogin(state, settings.lockout, user, expected === password);
}

async function isOwnPasswordChange(state: MockupState, user: string, request: AuthRequest): Promise<boolean> {
  if (
    request.method !== "PATCH" ||
    !isJsonObject(request.body) ||
    typeof request.body.Password !== "string"
  ) {
    return false;
  }
  const account = await state.read(request.pathname);
  return account?.kind === "json" && isManagerAccount(account.body) && account.body.UserName === user;
}
