import { type JsonObject, stringField } from "./json.js";
import type { MockupState } from "./mockupState.js";
import { samePath } from "./resourcePath.js";

const UPDATE_SERVICE = "/redfish/v1/UpdateService";

export type PushUriKind = "HttpPushUri" | "MultipartHttpPushUri";

/** Which of the UpdateService's push URIs a POST path is, if any (they may live outside `/redfish`). */
export async function pushUriKind(state: MockupState, pathname: string): Promise<PushUriKind | undefined> {
  const service = await state.read(UPDATE_SERVICE);
  if (service?.kind !== "json") return undefined;
  for (const kind of ["MultipartHttpPushUri", "HttpPushUri"] as const) {
    const uri = stringField(service.body, kind);
    if (uri && samePath(uri, pathname)) return kind;
  }
  return undefined;
}

/** What a push upload records (the image itself is consumed, not kept). */
export function uploadSummary(contentType: string | undefined, bytes: number): JsonObject {
  return { ContentType: contentType ?? "application/octet-stream", Bytes: bytes };
}
