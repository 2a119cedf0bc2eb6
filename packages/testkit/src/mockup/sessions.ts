import { randomBytes } from "node:crypto";
import { accountPathOf } from "./accounts.js";
import { verifyPassword } from "./auth.js";
import { createMember, ensureCollection, withoutMember } from "./collections.js";
import type { JsonObject } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { baseMessage, redfishError } from "./redfishMessages.js";
import { parentPath, resourceKey } from "./resourcePath.js";
import { jsonResponse } from "./responses.js";
import type { MockupServiceSettings } from "./serviceCore.js";
import type { MockupResponse } from "./types.js";

/**
 * POST to the Sessions collection: checks the credentials (unless auth is off), creates the Session member and
 * answers 201 with `X-Auth-Token` and `Location`. A user owing a password change still gets a session (real BMCs
 * do) with the PasswordChangeRequired message attached; the token then only allows changing the password.
 */
export async function createSession(
  state: MockupState,
  settings: Pick<MockupServiceSettings, "authMode" | "lockout">,
  sessionsPath: string,
  body: JsonObject,
): Promise<MockupResponse> {
  const mode = settings.authMode;
  const userName = typeof body.UserName === "string" ? body.UserName : undefined;
  const password = typeof body.Password === "string" ? body.Password : undefined;
  if (mode !== "none" && (userName === undefined || !verifyPassword(state, settings, userName, password))) {
    return redfishError(401, "NoValidSession");
  }
  const collection = await ensureCollection(state, sessionsPath, "#SessionCollection.SessionCollection");
  const created = await createMember(state, sessionsPath, collection, {
    "@odata.type": "#Session.v1_3_0.Session",
    Name: "User Session",
    UserName: userName ?? "anonymous",
  });
  const token = randomBytes(16).toString("hex");
  state.sessions.set(token, { path: created.path, userName: userName ?? "anonymous" });
  const mustChange =
    mode === "password-change-required" &&
    userName !== undefined &&
    state.passwordChangeRequired.has(userName);
  const answer = mustChange
    ? {
        ...created.document.body,
        "@Message.ExtendedInfo": [
          baseMessage("PasswordChangeRequired", [await accountPathOf(state, userName)]),
        ],
      }
    : created.document.body;
  return jsonResponse(201, answer, {
    location: created.path,
    "x-auth-token": token,
    etag: created.document.etag,
  });
}

/** Forgets the token of a deleted session resource. */
export function forgetSession(state: MockupState, sessionPath: string): void {
  const key = resourceKey(sessionPath);
  for (const [token, session] of state.sessions) {
    if (resourceKey(session.path) === key) state.sessions.delete(token);
  }
}

/** Invalidates every token and removes the session resources (the next request with a token gets 401). */
export function expireAllSessions(state: MockupState): void {
  const sessions = [...state.sessions.values()];
  state.sessions.clear();
  for (const session of sessions) {
    const collectionPath = parentPath(session.path);
    const collection = state.overlayBody(collectionPath);
    if (collection) state.write(collectionPath, withoutMember(collection, session.path));
    state.remove(session.path);
  }
}
