import { describe, expect, it } from "vitest";
import { cleanLink, linksToFollow } from "./crawlLinks.js";

const limits = { maxMembers: 2, maxLogEntries: 1 };

describe("linksToFollow", () => {
  it("finds links anywhere, without fragments, queries, duplicates or the resource itself", () => {
    const links = linksToFollow(
      "/redfish/v1/Chassis/1",
      {
        "@odata.id": "/redfish/v1/Chassis/1",
        Power: { "@odata.id": "/redfish/v1/Chassis/1/Power" },
        Links: {
          ComputerSystems: [{ "@odata.id": "/redfish/v1/Systems/1/" }],
          Self: { "@odata.id": "/redfish/v1/Chassis/1#/x" },
        },
        Oem: { Vendor: { Deep: [{ Nested: { "@odata.id": "/redfish/v1/Oem/Thing?$expand=." } }] } },
        PowerSupplies: [{ "@odata.id": "/redfish/v1/Chassis/1/Power#/PowerSupplies/0" }],
        Outside: { "@odata.id": "/cgi-bin/status" },
        Absolute: { "@odata.id": "https://10.0.0.5/redfish/v1/Managers/1" },
      },
      limits,
    );
    expect(links.sort()).toEqual([
      "/redfish/v1/Chassis/1/Power",
      "/redfish/v1/Managers/1",
      "/redfish/v1/Oem/Thing",
      "/redfish/v1/Systems/1",
    ]);
  });

  it("follows only the first members of a collection, fewer for log entries, never sessions", () => {
    const members = (base: string) => [1, 2, 3].map((n) => ({ "@odata.id": `${base}/${n}` }));
    expect(linksToFollow("/redfish/v1/Systems", { Members: members("/redfish/v1/Systems") }, limits)).toEqual(
      ["/redfish/v1/Systems/1", "/redfish/v1/Systems/2"],
    );
    const entries = "/redfish/v1/Managers/1/LogServices/Sel/Entries";
    expect(linksToFollow(entries, { Members: members(entries) }, limits)).toEqual([`${entries}/1`]);
    const sessions = "/redfish/v1/SessionService/Sessions";
    expect(
      linksToFollow(sessions, { Members: members(sessions), Self: { "@odata.id": sessions } }, limits),
    ).toEqual([]);
  });

  it("keeps links encoded (a decoded %2F would change the path)", () => {
    expect(cleanLink("/redfish/v1/Registries/%23Smart.v2/")).toBe("/redfish/v1/Registries/%23Smart.v2");
    expect(cleanLink("/redfish/v1alpha")).toBeUndefined();
  });
});
