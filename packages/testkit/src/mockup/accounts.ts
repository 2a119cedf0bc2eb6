import { isJsonObject, type JsonObject, linkOf, stringField } from "./json.js";
import type { MockupState } from "./mockupState.js";

const ACCOUNT_SERVICE = "/redfish/v1/AccountService";

/** A ManagerAccount: typed so, or untyped with a `UserName` (a Session is typed, and is not one). */
export function isManagerAccount(body: JsonObject): boolean {
  const type = stringField(body, "@odata.type");
  return type === undefined ? typeof body.UserName === "string" : type.includes("ManagerAccount.");
}

/** The account resource of a user (for the PasswordChangeRequired message), or the accounts collection. */
export async function accountPathOf(state: MockupState, userName: string): Promise<string> {
  const service = await state.read(ACCOUNT_SERVICE);
  const accountsPath =
    (service?.kind === "json" ? linkOf(service.body.Accounts) : undefined) ?? `${ACCOUNT_SERVICE}/Accounts`;
  const accounts = await state.read(accountsPath);
  const members =
    accounts?.kind === "json" && Array.isArray(accounts.body.Members) ? accounts.body.Members : [];
  for (const member of members) {
    const path = linkOf(member);
    if (!path) continue;
    const account = await state.read(path);
    if (account?.kind === "json" && account.body.UserName === userName) return path;
  }
  return accountsPath;
}

/**
 * Applies what a PATCH (or a create) of an account means for authentication: a new `Password` becomes the one
 * accepted for that user (and clears a pending forced change), a renamed account keeps its password. Returns
 * the patch without `Password`, which Redfish never shows.
 */
export function applyAccountCredentials(
  state: MockupState,
  account: JsonObject,
  patch: JsonObject,
): JsonObject {
  const { Password: password, ...rest } = patch;
  const oldName = stringField(account, "UserName");
  const newName = stringField(patch, "UserName") ?? oldName;
  if (oldName !== undefined && newName !== undefined && newName !== oldName) {
    const previous = state.accounts.get(oldName);
    state.accounts.delete(oldName);
    if (previous !== undefined) state.accounts.set(newName, previous);
  }
  if (typeof password === "string" && newName !== undefined) {
    state.accounts.set(newName, password);
    state.passwordChangeRequired.delete(newName);
  }
  return isJsonObject(rest) ? rest : {};
}
