import { describe, expect, it } from "vitest";
import type { LogEntryInfo } from "../drivers/types.js";
import { entriesSince, pickLogService } from "./eventLogs.js";

const entry = (id: string, created?: string): LogEntryInfo => ({
  id,
  created,
  severity: "OK",
  message: id,
  messageId: undefined,
  source: "SEL",
});

describe("entriesSince", () => {
  it("compares numeric ids as numbers, whatever the listing order", () => {
    const entries = [entry("10"), entry("9"), entry("11"), entry("2")];
    expect(entriesSince(entries, "9").map((e) => e.id)).toEqual(["10", "11"]);
    expect(entriesSince(entries, undefined).map((e) => e.id)).toEqual(["2", "9", "10", "11"]);
  });

  it("uses position for opaque ids, sorted by creation time", () => {
    const entries = [
      entry("c", "2024-01-03T00:00:00Z"),
      entry("a", "2024-01-01T00:00:00Z"),
      entry("b", "2024-01-02T00:00:00Z"),
    ];
    expect(entriesSince(entries, "a").map((e) => e.id)).toEqual(["b", "c"]);
    expect(entriesSince(entries, "unknown").map((e) => e.id)).toEqual(["a", "b", "c"]);
  });

  it("keeps the newest entries when limited", () => {
    expect(entriesSince([entry("1"), entry("2"), entry("3")], undefined, 2).map((e) => e.id)).toEqual([
      "2",
      "3",
    ]);
  });
});

describe("pickLogService", () => {
  const services = [
    { Id: "Lclog", Entries: { "@odata.id": "/l" } },
    { Id: "Sel", LogEntryType: "SEL", Entries: { "@odata.id": "/s" } },
    { Id: "Dump" },
  ];
  it("takes the first preferred id or entry type that has entries", () => {
    expect(pickLogService(services, ["SEL"])?.Id).toBe("Sel");
    expect(pickLogService(services, ["IEL", "Lclog"])?.Id).toBe("Lclog");
    expect(pickLogService(services, ["Dump"])).toBeUndefined();
  });
});
