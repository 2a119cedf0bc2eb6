/**
 * How large a gRPC request may be, declared per method next to each service and checked generically before
 * the handler runs (`guardService`). Every string and repeated field has a limit: the method's own for a field
 * it names, else `DEFAULT_MAX_STRING_LENGTH` / `DEFAULT_MAX_ARRAY_ITEMS` of `api/input`.
 *
 * A field is named by its path in the request as handlers see it (proto-loader's camelCase): `inventory.nics`
 * is the repeated field, `inventory.nics[].mac` a string in each of its items, `fallbackDpuSerials[]` each
 * string of a repeated string, `labels{}` each key and value of a map.
 */
export interface MethodLimits {
  /** The longest string (UTF-16 code units) per field path, where the default does not fit. */
  readonly maxLength?: Readonly<Record<string, number>>;
  /** The most items per repeated or map field path, where the default does not fit. */
  readonly maxItems?: Readonly<Record<string, number>>;
  /** The largest encoded request message, in bytes (default `DEFAULT_MAX_REQUEST_BYTES`). */
  readonly maxRequestBytes?: number;
}

/** A method whose request fits the defaults: written out, so that every method states its limits. */
export const DEFAULT_LIMITS: MethodLimits = Object.freeze({});

/**
 * grpc-js's own default message limit. The server accepts the largest a method declares (one limit per
 * server), so each method is held to its own here, or one big-payload method would open every other to it.
 */
export const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * Every method of a service (its generated `…Handlers` type, without the index signature grpc-js adds) with
 * its limits: a method missing from the table, or one the service does not have, fails typecheck.
 */
export type ServiceLimits<Handlers> = {
  readonly [Method in keyof Handlers as string extends Method ? never : Method]: MethodLimits;
};

/** A service's limits table as the server reads it: method name → limits. */
export type LimitsTable = Readonly<Record<string, MethodLimits>>;
