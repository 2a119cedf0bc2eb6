import type { RedfishResource } from "@racksmith/core/redfish";
import type { InlineParameterAction } from "./resources.js";

/** An action the resource advertises (`#Mode.Set`), with its target. */
export function advertisedAction(
  resource: RedfishResource | undefined,
  name: string,
): (InlineParameterAction & { target: string }) | undefined {
  const action = (resource?.Actions as Record<string, InlineParameterAction | undefined> | undefined)?.[name];
  return typeof action?.target === "string" ? { ...action, target: action.target } : undefined;
}

/** Allowed values of a parameter: NVIDIA lists them inline under `Parameters`, DMTF as an annotation. */
export function allowedParameterValues(
  action: InlineParameterAction,
  parameter: string,
): string[] | undefined {
  const inline = action.Parameters?.find((candidate) => candidate.Name === parameter)?.AllowableValues;
  const annotated = (action as Record<string, unknown>)[`${parameter}@Redfish.AllowableValues`];
  const values = Array.isArray(inline) ? inline : Array.isArray(annotated) ? annotated : undefined;
  return values?.map(String);
}
