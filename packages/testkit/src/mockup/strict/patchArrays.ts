import { isJsonObject, type JsonObject, type JsonValue } from "../json.js";

/**
 * PATCH with the array rules of DSP0266: like `deepMerge` (objects merge recursively, scalars replace, `null` sets
 * null), but an array in the request is applied element by element: `{}` keeps the current element, `null`
 * removes it, an object merges into a current object (else replaces), anything else replaces; current elements
 * past the end of the request are removed, request elements past the current end are added. Never mutates.
 */
export function mergePatch(current: JsonObject, patch: JsonObject): JsonObject {
  const merged: JsonObject = { ...current };
  for (const [key, value] of Object.entries(patch)) merged[key] = mergeValue(merged[key], value);
  return merged;
}

function mergeValue(current: JsonValue | undefined, patch: JsonValue): JsonValue {
  // An object replacing a non-object still goes through the rules, against an empty object.
  if (isJsonObject(patch)) return mergePatch(isJsonObject(current) ? current : {}, patch);
  // A property that is null or missing now has no elements: `{}` and `null` in the request add nothing to it.
  if (Array.isArray(patch)) return mergeArray(Array.isArray(current) ? current : [], patch);
  return patch;
}

function mergeArray(current: readonly JsonValue[], patch: readonly JsonValue[]): JsonValue[] {
  const merged: JsonValue[] = [];
  patch.forEach((element, index) => {
    const existing = index < current.length ? current[index] : undefined;
    if (element === null) return;
    if (isJsonObject(element) && Object.keys(element).length === 0) {
      if (existing !== undefined) merged.push(existing);
      return;
    }
    merged.push(isJsonObject(element) ? mergeValue(existing, element) : element);
  });
  return merged;
}
