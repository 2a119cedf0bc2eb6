import { describe, expect, it } from "vitest";
import { lastPathSegment, normalizePath, parentPath, resourceKey } from "./resourcePath.js";

describe("normalizePath", () => {
  it.each([
    ["/redfish/v1/Systems/1", "/redfish/v1/Systems/1"],
    ["/redfish/v1/systems/1/bios/", "/redfish/v1/systems/1/bios"],
    ["redfish/v1", "/redfish/v1"],
    ["//redfish//v1///Chassis", "/redfish/v1/Chassis"],
    ["/redfish/v1/Systems?$expand=.", "/redfish/v1/Systems"],
    ["/redfish/v1/Systems#frag", "/redfish/v1/Systems"],
    ["/redfish/v1/Systems/System.Embedded.1", "/redfish/v1/Systems/System.Embedded.1"],
    ["/redfish/v1/Chassis/Enclosure%201", "/redfish/v1/Chassis/Enclosure 1"],
    ["/redfish/v1/Chassis/bad%zzescape", "/redfish/v1/Chassis/bad%zzescape"],
    ["/redfish/v1/Chassis/a%2Fb", "/redfish/v1/Chassis/a/b"],
    ["/", "/"],
    ["", "/"],
  ])("%j → %j", (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it("derives keys, parents and ids from the normalized path", () => {
    expect(resourceKey("/redfish/v1/Systems/1/Bios/")).toBe("/redfish/v1/systems/1/bios");
    expect(parentPath("/redfish/v1/Systems/1")).toBe("/redfish/v1/Systems");
    expect(parentPath("/redfish")).toBe("/");
    expect(lastPathSegment("/redfish/v1/Chassis/Enclosure%201/")).toBe("Enclosure 1");
  });
});
