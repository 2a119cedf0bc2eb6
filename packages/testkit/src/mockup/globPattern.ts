/**
 * Path globs used by fault rules, behaviors and the recorder's include/exclude lists: `*` matches within one
 * segment, `**` across segments (`/a/**` also matches `/a`). Matching ignores case and a trailing slash, as
 * path lookups do.
 */
export function compileGlob(pattern: string): RegExp {
  const trimmed = pattern.length > 1 ? pattern.replace(/\/+$/, "") : pattern;
  let source = "";
  for (let i = 0; i < trimmed.length; i++) {
    const char = trimmed[i] as string;
    if (char === "*" && trimmed[i + 1] === "*") {
      const slashBefore = source.endsWith("/");
      const atEndOrSlash = i + 2 >= trimmed.length || trimmed[i + 2] === "/";
      if (slashBefore && atEndOrSlash) {
        // `/**` and `/**/` also match zero segments.
        source = `${source.slice(0, -1)}(?:/.*)?`;
      } else {
        source += ".*";
      }
      i++;
    } else if (char === "*") {
      source += "[^/]*";
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}/?$`, "i");
}

/** True when the pathname (query and trailing slash ignored) matches the glob. */
export function matchesGlob(pattern: RegExp, pathname: string): boolean {
  const q = pathname.indexOf("?");
  return pattern.test(q >= 0 ? pathname.slice(0, q) : pathname);
}
