import { applyAccountCredentials, isManagerAccount } from "./accounts.js";
import { biosOfMissingSettings, emptySettingsFor } from "./biosSettings.js";
import { isCollection } from "./collections.js";
import { ifMatchSatisfied } from "./ifMatch.js";
import { deepMerge, isJsonObject, type JsonObject } from "./json.js";
import type { MockupJsonDocument } from "./mockupDocument.js";
import { malformedJson, methodNotAllowed, redfishError, resourceMissing } from "./redfishMessages.js";
import { parseJsonBody } from "./requestBody.js";
import { noContent } from "./responses.js";
import type { ServiceCore, ServiceRequest } from "./serviceCore.js";
import type { MockupResponse } from "./types.js";

/**
 * PATCH: deep merge into the resource and bump its ETag, honouring `If-Match` (412 on mismatch). A missing BIOS
 * settings child of an existing Bios is created; collections and documents that are not JSON resources refuse
 * (405). A new account `Password` becomes the accepted one and is never stored in the body. Answers 204 + ETag.
 */
export async function handlePatch(core: ServiceCore, request: ServiceRequest): Promise<MockupResponse> {
  const { state } = core;
  const parsed = parseJsonBody(request.body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return malformedJson();
  const patch = parsed.value;

  const document = await state.read(request.pathname);
  let current: MockupJsonDocument | undefined;
  let base: JsonObject;
  if (!document) {
    const bios = await biosOfMissingSettings(state, request.pathname);
    if (!bios) return resourceMissing(request.pathname);
    base = emptySettingsFor(request.pathname, bios);
  } else if (document.kind === "json" && document.status === 200 && !isCollection(document.body)) {
    current = document;
    base = document.body;
  } else {
    const collection = document.kind === "json" && isCollection(document.body);
    return methodNotAllowed("PATCH", request.pathname, collection ? "GET, HEAD, POST" : "GET, HEAD");
  }
  if (!ifMatchSatisfied(request.headers["if-match"], current)) return redfishError(412, "PreconditionFailed");

  const hooked = await core.behaviors.runPatch({
    service: core.service,
    request,
    body: patch,
    current: current?.body,
  });
  if (hooked) return hooked;

  const change = isManagerAccount(base) ? applyAccountCredentials(state, base, patch) : patch;
  const written = state.write(request.pathname, deepMerge(base, change), current?.headers);
  return noContent({ etag: written.etag });
}
