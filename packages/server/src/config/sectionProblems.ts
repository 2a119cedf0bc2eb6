import type { ErrorObject } from "ajv";

/**
 * Ajv's findings in one built-in config section, each naming its key (`lifecycle.maxRetries must be >= 1`,
 * `lifecycle.retries is not a known key`): how the sections' resolvers and config checks word them.
 */
export function sectionSchemaProblems(
  section: string,
  errors: readonly ErrorObject[] | null | undefined,
): string[] {
  return (errors ?? []).map((e) => {
    const at = `${section}${e.instancePath.replace(/\//g, ".")}`;
    return e.keyword === "additionalProperties"
      ? `${at}.${String(e.params.additionalProperty)} is not a known key`
      : `${at} ${e.message}`;
  });
}
