/** How much of a bad value an error message quotes. */
const EXCERPT_LENGTH = 40;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNPRINTABLE = /[\u0000-\u001f\u007f\uD800-\uDFFF]/g;

/** At most a short, printable excerpt of `value` for an error message: never the whole input echoed back. */
export function excerpt(value: string, max = EXCERPT_LENGTH): string {
  // Control characters and surrogates become U+FFFD, so the excerpt itself is safe to log and store.
  const printable = value.slice(0, max + 1).replace(UNPRINTABLE, "\uFFFD");
  return value.length > max ? `${printable.slice(0, max)}… (${value.length} characters)` : printable;
}

/** Any caller value as JSON (`"nope"`, `42`), excerpted: what a message shows of a value it rejects. */
export function quoted(value: unknown, max = EXCERPT_LENGTH): string {
  return excerpt(JSON.stringify(value) ?? String(value), max);
}
