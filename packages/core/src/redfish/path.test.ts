import { describe, expect, it } from "vitest";
import { lastSegment, toRequestPath } from "./path.js";

describe("request paths", () => {
  it.each([
    ["Systems/1", "/redfish/v1/Systems/1"],
    ["", "/redfish/v1"],
    ["/redfish/v1/systems/1/bios/settings/", "/redfish/v1/systems/1/bios/settings/"],
    ["https://10.0.0.5/redfish/v1/Chassis?$expand=.($levels=1)", "/redfish/v1/Chassis?$expand=.($levels=1)"],
    ["/redfish/v1/Oem/Dell/DCIM:INSTALLED#741__BIOS", "/redfish/v1/Oem/Dell/DCIM:INSTALLED%23741__BIOS"],
    ["/redfish/v1/a b/100%", "/redfish/v1/a%20b/100%25"],
    ["/redfish/v1/already%20encoded", "/redfish/v1/already%20encoded"],
  ])("%s → %s", (input, expected) => {
    expect(toRequestPath(input)).toBe(expected);
  });

  it("takes the decoded last segment as the Id", () => {
    expect(lastSegment("/redfish/v1/Systems/System.Embedded.1/")).toBe("System.Embedded.1");
    expect(lastSegment("/redfish/v1/Chassis/a%20b?x=1")).toBe("a b");
  });
});
