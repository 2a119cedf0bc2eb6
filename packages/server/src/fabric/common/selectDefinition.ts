import { InvalidArgumentError } from "@racksmith/core";

/** Which fabric section is being resolved, for error messages. */
export interface FabricSectionName {
  /** `infiniband` or `nvlink` (the key under `fabrics`). */
  key: string;
  /** `InfiniBand`, `NVLink`. */
  label: string;
  /** A plugin that registers one, e.g. `@racksmith/fabric-ufm`. */
  examplePlugin: string;
}

/**
 * The registered definition `fabrics.<key>.fabric` names, or the only one loaded when it names none; a clear
 * error naming the key otherwise.
 */
export function selectFabricDefinition<T extends { name: string }>(
  section: FabricSectionName,
  registered: readonly T[],
  name: string | undefined,
): T {
  const names = registered.map((d) => d.name);
  const definition =
    name !== undefined
      ? registered.find((d) => d.name === name)
      : registered.length === 1
        ? registered[0]
        : undefined;
  if (definition) return definition;
  const { key, label, examplePlugin } = section;
  throw new InvalidArgumentError(
    name !== undefined
      ? `fabrics.${key}.fabric: no loaded plugin registers an ${label} fabric named "${name}" (registered: ${names.join(", ") || "none"})`
      : names.length === 0
        ? `fabrics.${key}: no loaded plugin registers an ${label} fabric; add one such as ${examplePlugin} to plugins`
        : `fabrics.${key}: several ${label} fabrics are registered (${names.join(", ")}); name one with fabrics.${key}.fabric`,
    { details: { field: name !== undefined ? `fabrics.${key}.fabric` : `fabrics.${key}` } },
  );
}
