import { type JsonObject, type JsonValue, linkOf, stringField } from "./json.js";
import type { MockupJsonDocument } from "./mockupDocument.js";
import type { MockupState } from "./mockupState.js";
import { childPath, lastPathSegment, normalizePath, samePath } from "./resourcePath.js";

/** A Redfish collection is any resource with a `Members` array. */
export function isCollection(body: JsonObject): boolean {
  return Array.isArray(body.Members);
}

/** The collection at `path`, created empty when missing (tasks and sessions on trees that lack them). */
export async function ensureCollection(
  state: MockupState,
  path: string,
  odataType: string,
): Promise<JsonObject> {
  const existing = await state.read(path);
  if (existing?.kind === "json" && existing.status === 200 && isCollection(existing.body))
    return existing.body;
  const body: JsonObject = {
    "@odata.id": normalizePath(path),
    "@odata.type": odataType,
    Name: `${lastPathSegment(path)} Collection`,
    Members: [],
    "Members@odata.count": 0,
  };
  return state.write(path, body).body;
}

export interface CreatedMember {
  readonly path: string;
  readonly document: MockupJsonDocument;
}

/**
 * Adds a member to a collection: the next free id (numeric when the existing ids are), `@odata.id` and `Id` set,
 * `@odata.type` derived from the collection's type when the body has none; `Members` and the count updated.
 */
export async function createMember(
  state: MockupState,
  collectionPath: string,
  collection: JsonObject,
  body: JsonObject,
  id?: string,
): Promise<CreatedMember> {
  const members = Array.isArray(collection.Members) ? collection.Members : [];
  const memberId = id ?? nextFreeId(members);
  const base = stringField(collection, "@odata.id") ?? collectionPath;
  const path = childPath(base, memberId);
  const memberType = stringField(body, "@odata.type") ?? memberTypeOf(collection);
  const document = state.write(path, {
    ...(memberType ? { "@odata.type": memberType } : {}),
    ...body,
    "@odata.id": path,
    Id: memberId,
  });
  const count = collection["Members@odata.count"];
  state.write(collectionPath, {
    ...collection,
    Members: [...members, { "@odata.id": path }],
    "Members@odata.count": typeof count === "number" ? count + 1 : members.length + 1,
  });
  return { path, document };
}

/** Removes a member link from its collection and fixes the count. */
export function withoutMember(collection: JsonObject, memberPath: string): JsonObject {
  const members = Array.isArray(collection.Members) ? collection.Members : [];
  const kept = members.filter((member) => !sameLink(member, memberPath));
  const count = collection["Members@odata.count"];
  const removed = members.length - kept.length;
  return {
    ...collection,
    Members: kept,
    "Members@odata.count": typeof count === "number" ? Math.max(0, count - removed) : kept.length,
  };
}

function sameLink(member: JsonValue, path: string): boolean {
  const link = linkOf(member);
  return link !== undefined && samePath(link, path);
}

function nextFreeId(members: readonly JsonValue[]): string {
  const ids = new Set(members.map((member) => lastPathSegment(linkOf(member) ?? "")));
  const numeric = [...ids].filter((id) => /^\d+$/.test(id)).map(Number);
  let candidate = numeric.length > 0 ? Math.max(...numeric) + 1 : ids.size + 1;
  while (ids.has(String(candidate))) candidate++;
  return String(candidate);
}

/** `#ManagerAccountCollection.ManagerAccountCollection` → `#ManagerAccount.ManagerAccount`. */
function memberTypeOf(collection: JsonObject): string | undefined {
  const match = /^#(\w+)Collection\.\w+$/.exec(stringField(collection, "@odata.type") ?? "");
  return match ? `#${match[1]}.${match[1]}` : undefined;
}
