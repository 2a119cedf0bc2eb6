/**
 * Normalises an ETag as a BMC sent it (`W/"abc"`, `"abc"`, or a bare `abc` some firmwares emit) into a form that
 * can be sent back in `If-Match`. Weak tags are kept weak: BMCs that issue them expect them back verbatim.
 */
export function normalizeEtag(raw: string | undefined | null): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  let tag = raw.trim();
  if (!tag) return undefined;
  let weak = false;
  if (/^w\//i.test(tag)) {
    weak = true;
    tag = tag.slice(2).trim();
  }
  // Some firmwares double-quote (`""abc""`) or escape quotes; strip them all and quote once.
  tag = tag.replace(/^(\\?")+|(\\?")+$/g, "");
  if (!tag) return undefined;
  return `${weak ? "W/" : ""}"${tag}"`;
}

/** Compares two ETags ignoring weakness and quoting (what a lenient BMC does for `If-Match`). */
export function etagsMatch(a: string | undefined, b: string | undefined): boolean {
  const x = normalizeEtag(a);
  const y = normalizeEtag(b);
  if (!x || !y) return false;
  return x.replace(/^W\//, "") === y.replace(/^W\//, "");
}
