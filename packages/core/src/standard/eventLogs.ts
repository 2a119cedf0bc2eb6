import type { LogEntryInfo } from "../drivers/types.js";
import type { LogService } from "../redfish/index.js";

/** Picks the log service whose Id (or entry type) comes first in the preference list, else the first one. */
export function pickLogService(
  services: readonly LogService[],
  preferredIds: readonly string[],
): LogService | undefined {
  const usable = services.filter((service) => service.Entries?.["@odata.id"]);
  for (const preferred of preferredIds) {
    const found = usable.find(
      (service) =>
        service.Id?.toLowerCase() === preferred.toLowerCase() ||
        service.LogEntryType?.toLowerCase() === preferred.toLowerCase(),
    );
    if (found) return found;
  }
  return undefined;
}

/**
 * Entries after `sinceId`, oldest first. Ids are compared numerically when both are numbers; otherwise by
 * position (everything listed after the entry with that id). An unknown `sinceId` returns everything.
 */
export function entriesSince(
  entries: readonly LogEntryInfo[],
  sinceId: string | undefined,
  limit?: number,
): LogEntryInfo[] {
  const sorted = sortEntries(entries);
  let result = sorted;
  if (sinceId !== undefined) {
    const since = Number(sinceId);
    if (Number.isFinite(since) && sorted.every((entry) => Number.isFinite(Number(entry.id)))) {
      result = sorted.filter((entry) => Number(entry.id) > since);
    } else {
      const index = sorted.findIndex((entry) => entry.id === sinceId);
      result = index >= 0 ? sorted.slice(index + 1) : sorted;
    }
  }
  return limit !== undefined && result.length > limit ? result.slice(result.length - limit) : result;
}

function sortEntries(entries: readonly LogEntryInfo[]): LogEntryInfo[] {
  const numeric = entries.every((entry) => Number.isFinite(Number(entry.id)));
  if (numeric) return [...entries].sort((a, b) => Number(a.id) - Number(b.id));
  const dated = entries.every((entry) => entry.created && !Number.isNaN(Date.parse(entry.created)));
  if (dated) return [...entries].sort((a, b) => Date.parse(a.created ?? "") - Date.parse(b.created ?? ""));
  return [...entries];
}
