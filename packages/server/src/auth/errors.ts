import { RacksmithError } from "@racksmith/core";
import { excerpt } from "../api/index.js";

/** No token, or one that does not prove who calls; the message says which, never quoting the token. */
export class UnauthenticatedError extends RacksmithError {
  constructor(message: string) {
    super("unauthenticated", "UNAUTHENTICATED", message);
  }
}

/** The caller is known, but its role (or its machine) may not make this call. */
export class PermissionDeniedError extends RacksmithError {
  constructor(message: string) {
    super("permission_denied", "PERMISSION_DENIED", message);
  }
}

export class TokenNotFoundError extends RacksmithError {
  constructor(readonly tokenId: string) {
    super("token_not_found", "NOT_FOUND", `no token ${excerpt(tokenId)}`, { details: { tokenId } });
  }
}
