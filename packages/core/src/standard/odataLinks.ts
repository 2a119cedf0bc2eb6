/**
 * The key two `@odata.id`s of one resource share: no query, no trailing slash, lower case (BMCs differ in case
 * between a link and the resource it names, as HPE does).
 */
export function odataKey(odataId: string): string {
  return odataId
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

/** The `@odata.id`s of a link array as a BMC sent it (anything else in it is skipped). */
export function linkIds(links: unknown): string[] {
  if (!Array.isArray(links)) return [];
  return links.flatMap((link) => {
    const id = (link as { "@odata.id"?: unknown } | null)?.["@odata.id"];
    return typeof id === "string" && id !== "" ? [id] : [];
  });
}

/** Whether `links` names the resource `odataId`. */
export function linksTo(links: readonly string[], odataId: string): boolean {
  const key = odataKey(odataId);
  return links.some((link) => odataKey(link) === key);
}
