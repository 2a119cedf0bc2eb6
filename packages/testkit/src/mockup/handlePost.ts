import { applyAccountCredentials } from "./accounts.js";
import { findAdvertisedAction, isActionPath, standardActionName } from "./actions.js";
import { SESSIONS_PATH } from "./auth.js";
import { createMember, isCollection } from "./collections.js";
import { pushUriKind, uploadSummary } from "./firmwareUpdate.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { malformedJson, methodNotAllowed, redfishError, resourceMissing } from "./redfishMessages.js";
import { bodySize, parseJsonBody } from "./requestBody.js";
import { resourceKey } from "./resourcePath.js";
import { jsonResponse, noContent } from "./responses.js";
import type { ServiceCore, ServiceRequest } from "./serviceCore.js";
import { createSession } from "./sessions.js";
import { checkSubscription } from "./strict/index.js";
import { resetComputerSystem } from "./systemReset.js";
import { createTask, taskAccepted } from "./tasks.js";
import type { MockupResponse } from "./types.js";
import { reportVendorReset, watchVendorReset } from "./vendorReset.js";

/**
 * POST: firmware pushes to the UpdateService's push URIs, advertised actions, then creation in a collection
 * (sessions get a token). Anything else is 405 (an existing resource) or 404.
 */
export async function handlePost(core: ServiceCore, request: ServiceRequest): Promise<MockupResponse> {
  const { state, settings } = core;
  const push = await pushUriKind(state, request.pathname);
  if (push) {
    const upload = uploadSummary(request.headers["content-type"], bodySize(request.body));
    record(core, request.pathname, push, upload);
    return taskAccepted(
      await createTask(state, {
        name: `Firmware update (${push})`,
        durationMs: settings.taskDurationMs,
        payload: upload,
      }),
    );
  }

  const parsed = parseJsonBody(request.body);
  if (!parsed.ok || (parsed.value !== undefined && !isJsonObject(parsed.value))) return malformedJson();
  const body: JsonObject = parsed.value ?? {};

  if (isActionPath(request.pathname)) return invokeAction(core, request, body);

  const current = await state.read(request.pathname);
  const currentBody = current?.kind === "json" && current.status === 200 ? current.body : undefined;
  const hooked = await core.behaviors.runPost({ service: core.service, request, body, current: currentBody });
  if (hooked) return hooked;

  if (resourceKey(request.pathname) === resourceKey(SESSIONS_PATH)) {
    return createSession(state, settings, request.pathname, body);
  }
  if (!current) return resourceMissing(request.pathname);
  if (!currentBody || !isCollection(currentBody))
    return methodNotAllowed("POST", request.pathname, "GET, HEAD, PATCH");
  const invalid = await checkSubscription(core, request.pathname, currentBody, body);
  if (invalid) return invalid;

  const { Password: _password, ...withoutPassword } = body;
  const memberBody =
    typeof body.UserName === "string" ? applyAccountCredentials(state, {}, body) : withoutPassword;
  const created = await createMember(state, request.pathname, currentBody, memberBody);
  return jsonResponse(201, created.document.body, { location: created.path, etag: created.document.etag });
}

async function invokeAction(
  core: ServiceCore,
  request: ServiceRequest,
  body: JsonObject,
): Promise<MockupResponse> {
  const { state, settings } = core;
  const action = await findAdvertisedAction(state, request.pathname);
  if (!action) return redfishError(404, "ActionNotSupported", [request.pathname]);
  record(core, request.pathname, action.name, body);

  const watch = await watchVendorReset(core, action);
  const hooked = await core.behaviors.runAction({
    service: core.service,
    request,
    body,
    action: action.name,
    resourcePath: action.resourcePath,
    definition: action.definition,
  });
  if (hooked) {
    await reportVendorReset(core, action, body, watch, hooked);
    return hooked;
  }

  switch (standardActionName(action.name)) {
    case "ComputerSystem.Reset":
      return resetComputerSystem(core, action, body);
    case "UpdateService.SimpleUpdate":
      return taskAccepted(
        await createTask(state, { name: "SimpleUpdate", durationMs: settings.taskDurationMs, payload: body }),
      );
    default:
      return noContent();
  }
}

function record(core: ServiceCore, path: string, action: string, body: JsonValue | undefined): void {
  core.state.actions.push({ path, action, body, at: new Date(core.state.now()) });
}
