import type { LogService } from "@racksmith/core/redfish";

function byId(services: readonly LogService[], id: string): LogService | undefined {
  return services.find((service) => service.Id?.toLowerCase() === id.toLowerCase());
}

function hasEntries(service: LogService | undefined): service is LogService {
  return Boolean(service?.Entries?.["@odata.id"]);
}

/**
 * The host's event log: the `SEL` log service when it publishes entries; XCC firmware that does not (the
 * SR670 V2 capture) keeps the same platform events in `PlatformLog`. `empty` when only an entry-less SEL exists.
 */
export function systemLogService(services: readonly LogService[]): LogService | "empty" | undefined {
  const sel = byId(services, "SEL");
  if (hasEntries(sel)) return sel;
  const platform = byId(services, "PlatformLog");
  if (hasEntries(platform)) return platform;
  return sel ? "empty" : undefined;
}

/** The XCC's own log: `AuditLog` (logins, configuration changes), wherever the firmware lists it. */
export function bmcLogService(services: readonly LogService[]): LogService | undefined {
  const audit = byId(services, "AuditLog");
  return hasEntries(audit) ? audit : undefined;
}
