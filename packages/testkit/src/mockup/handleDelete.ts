import { isManagerAccount } from "./accounts.js";
import { isCollection, withoutMember } from "./collections.js";
import type { MockupState } from "./mockupState.js";
import { methodNotAllowed, redfishError, resourceMissing } from "./redfishMessages.js";
import { parentPath } from "./resourcePath.js";
import { noContent } from "./responses.js";
import type { ServiceCore, ServiceRequest } from "./serviceCore.js";
import { forgetSession } from "./sessions.js";
import type { MockupResponse } from "./types.js";

/**
 * DELETE: only a collection member can go; it is dropped from its collection (count fixed), a session's token
 * stops working and a deleted account can no longer log in. Answers 204.
 */
export async function handleDelete(core: ServiceCore, request: ServiceRequest): Promise<MockupResponse> {
  const { state } = core;
  const document = await state.read(request.pathname);
  if (!document) return resourceMissing(request.pathname);
  if (document.kind === "json" && isCollection(document.body)) {
    return methodNotAllowed("DELETE", request.pathname, "GET, HEAD, POST");
  }
  const collectionPath = parentPath(request.pathname);
  const collection = await state.read(collectionPath);
  if (collection?.kind !== "json" || !isCollection(collection.body)) {
    return redfishError(405, "ResourceCannotBeDeleted", [], { headers: { allow: "GET, HEAD, PATCH" } });
  }
  state.write(collectionPath, withoutMember(collection.body, request.pathname));
  if (document.kind === "json" && isManagerAccount(document.body))
    forgetAccount(state, document.body.UserName);
  state.remove(request.pathname);
  forgetSession(state, request.pathname);
  return noContent();
}

function forgetAccount(state: MockupState, userName: unknown): void {
  if (typeof userName === "string") state.accounts.delete(userName);
}
