/** PostgreSQL's int8 type. */
export const INT8_OID = 20;

/**
 * bigint columns (versions, counts) are read as numbers on both dialects: pg would give strings and PGlite
 * numbers otherwise. Values stay far below 2^53.
 */
export function parseInt8(value: string): number {
  return Number(value);
}
