import type { ErrorObject } from "ajv";

/** `/pkeyRanges/0/end` → `fabrics.infiniband.pkeyRanges[0].end`. */
export function keyAt(prefix: string, instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : `${path}.${part}`), prefix);
}

/** One line per problem, each naming the full key, so an operator can find it in the config file. */
export function formatSchemaErrors(prefix: string, errors: readonly ErrorObject[]): string[] {
  const lines = new Set<string>();
  for (const error of errors) {
    const at = keyAt(prefix, error.instancePath);
    switch (error.keyword) {
      case "additionalProperties":
        lines.add(`unknown key ${at}.${String(error.params.additionalProperty)}`);
        break;
      case "required":
        lines.add(`${at}: missing required key ${String(error.params.missingProperty)}`);
        break;
      case "enum":
        lines.add(
          `${at}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
        );
        break;
      default:
        lines.add(`${at}: ${error.message ?? "is invalid"}`);
    }
  }
  return [...lines];
}
