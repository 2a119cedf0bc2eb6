import { applyAccountCredentials, isManagerAccount } from "./accounts.js";
import { biosOfMissingSettings, emptySettingsFor } from "./biosSettings.js";
import { isCollection } from "./collections.js";
import { ifMatchSatisfied } from "./ifMatch.js";
import { deepMerge, isJsonObject, type JsonObject, objectField } from "./json.js";
import type { MockupJsonDocument } from "./mockupDocument.js";
import type { MockupState } from "./mockupState.js";
import { malformedJson, methodNotAllowed, redfishError, resourceMissing } from "./redfishMessages.js";
import { parseJsonBody } from "./requestBody.js";
import { noContent } from "./responses.js";
import type { ServiceCore, ServiceRequest } from "./serviceCore.js";
import { mergePatch, type PatchPlan, patchPartlyApplied, patchRefused, planPatch } from "./strict/index.js";
import type { MockupResponse } from "./types.js";

/**
 * PATCH: deep merge into the resource and bump its ETag, honouring `If-Match` (412 on mismatch). A missing BIOS
 * settings child of an existing Bios is created; collections and documents that are not JSON resources refuse
 * (405). A new account `Password` becomes the accepted one and is never stored in the body. Answers 204 + ETag.
 * Strict mode: unknown and read-only properties are ignored (400 when nothing else is left, else 200 naming
 * them), and arrays follow the DSP0266 element rules.
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

  const plan: PatchPlan = core.rules.enforces("patchProperties")
    ? planPatch(base, patch, await planOptions(state, request.pathname, base))
    : { apply: patch, ignored: [] };
  if (plan.ignored.length > 0 && Object.keys(plan.apply).length === 0) return patchRefused(plan.ignored);

  const change = isManagerAccount(base) ? applyAccountCredentials(state, base, plan.apply) : plan.apply;
  const merge = core.rules.enforces("patchArrays") ? mergePatch : deepMerge;
  const written = state.write(request.pathname, merge(base, change), current?.headers);
  if (plan.ignored.length > 0) return patchPartlyApplied(written.body, written.etag, plan.ignored);
  return noContent({ etag: written.etag });
}

/** What a PATCH may name beyond what the resource shows: an account's Password, the attributes of the Bios. */
async function planOptions(
  state: MockupState,
  path: string,
  base: JsonObject,
): Promise<Parameters<typeof planPatch>[2]> {
  const writeOnly = isManagerAccount(base) ? ["Password"] : [];
  // Works for an existing settings child too (it only checks the name and reads the parent Bios), also one
  // that shows no Attributes yet (Supermicro's empty `Bios/SD`).
  const bios = await biosOfMissingSettings(state, path);
  return { writeOnly, knownAttributes: Object.keys(objectField(bios, "Attributes") ?? {}) };
}
