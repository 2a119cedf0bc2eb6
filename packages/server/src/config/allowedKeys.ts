import type { SchemaObject } from "ajv";

/** The keys a schema declares at an ajv instance path (`/fabrics/infiniband`), for "did you mean" hints. */
export function allowedKeysAt(schema: Readonly<SchemaObject>, instancePath: string): string[] {
  let node: SchemaObject | undefined = schema;
  for (const part of instancePath.split("/").slice(1)) {
    if (!node) break;
    node = /^\d+$/.test(part)
      ? (node.items as SchemaObject | undefined)
      : (node.properties?.[part] as SchemaObject | undefined);
  }
  return Object.keys(node?.properties ?? {});
}
