/** A thrown value as one line for a wait reason or failure message (errors never carry secrets). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
