const SERVICE_ROOT = "/redfish/v1";

/**
 * Turns what callers pass (`Systems/1`, `/redfish/v1/Systems/1`, or an absolute URL of the same BMC) into an
 * encoded request path. Characters a path may not carry (space, `#`, non-ASCII) are percent-encoded; existing
 * escapes and the query string are kept.
 */
export function toRequestPath(pathOrUrl: string): string {
  let path = pathOrUrl.trim();
  if (/^https?:\/\//i.test(path)) {
    const url = new URL(path);
    path = url.pathname + url.search;
  } else if (!path.startsWith("/")) {
    path = path === "" ? SERVICE_ROOT : `${SERVICE_ROOT}/${path}`;
  }
  const q = path.indexOf("?");
  const pathname = q >= 0 ? path.slice(0, q) : path;
  const query = q >= 0 ? path.slice(q) : "";
  return encodePathname(pathname) + query;
}

function encodePathname(pathname: string): string {
  return pathname.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) =>
    encodeURIComponent(c),
  );
}

/** Appends query parameters to a path that may already have some. */
export function withQuery(path: string, query: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

/** The last segment of an `@odata.id`, decoded (the resource's Id by Redfish convention). */
export function lastSegment(odataId: string): string {
  const clean = odataId.replace(/\?.*$/, "").replace(/\/+$/, "");
  const segment = clean.slice(clean.lastIndexOf("/") + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
