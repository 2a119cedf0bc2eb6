/** Keys whose values are secrets wherever they appear (request bodies, headers, config, reports). */
const SECRET_KEY = /pass(word)?|secret|token|authorization|x-auth-token|credential|api[-_]?key|cookie/i;

export const REDACTED = "[redacted]";

/** Deep copy of a JSON-like value with every secret-looking key's value replaced. */
export function redactSecrets<T>(value: T): T {
  return redactValue(value, 0) as T;
}

function redactValue(value: unknown, depth: number): unknown {
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && item !== null && item !== "" ? REDACTED : redactValue(item, depth + 1);
  }
  return out;
}

/** Replaces the password of `user:password@` in a URL so it can be printed (the user name stays). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    const user = parsed.username;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace("://", `://${user}:${REDACTED}@`);
  } catch {
    return url.replace(/\/\/([^/:@\s]*):[^/@\s]*@/, `//$1:${REDACTED}@`);
  }
}

/** Replaces every occurrence of the given secrets in a free-text string (error messages, excerpts). */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 3) out = out.split(secret).join(REDACTED);
  }
  return out;
}
