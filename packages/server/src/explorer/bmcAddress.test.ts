import { describe, expect, it } from "vitest";
import { assertBmcAddress } from "./bmcAddress.js";

describe("assertBmcAddress", () => {
  it.each([
    "10.0.0.5",
    "10.0.0.5:8443",
    "bmc-r1-u12.example.net",
    "bmc1:443",
    "fe80::1",
    "[fe80::1]",
    "[2001:db8::5]:8443",
    "https://10.0.0.5",
    "https://bmc1:8443",
  ])("accepts %s", (address) => {
    expect(() => assertBmcAddress(address, "https")).not.toThrow();
  });

  it.each([
    ["plain http where BMCs speak https", "http://10.0.0.5"],
    ["another scheme", "ftp://10.0.0.5"],
    ["a path", "10.0.0.5/redfish/v1"],
    ["a path after the scheme", "https://10.0.0.5/redfish/v1"],
    ["user info", "root:pw@10.0.0.5"],
    ["an empty string", ""],
    ["a bad IPv4", "10.0.0.256"],
    ["port 0", "10.0.0.5:0"],
    ["a port too high", "10.0.0.5:70000"],
    ["a NUL byte", "10.0.0.5\u0000"],
    ["spaces inside", "10.0. 0.5"],
    ["path traversal", "../../etc/passwd"],
  ])("refuses %s", (_what, address) => {
    expect(() => assertBmcAddress(address, "https")).toThrow(
      expect.objectContaining({ code: "invalid_argument", details: { field: "address" } }),
    );
  });

  it("accepts plain http only where the site's BMCs speak it", () => {
    expect(() => assertBmcAddress("http://10.0.0.5:8000", "http")).not.toThrow();
    expect(() => assertBmcAddress("https://10.0.0.5", "http")).toThrow(
      /uses https:\/\/ but this site's BMCs use http:\/\//,
    );
  });

  it("quotes at most an excerpt of a huge address", () => {
    const huge = "x".repeat(100_000);
    let message = "";
    try {
      assertBmcAddress(`${huge}/`, "https");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^address "x+… \(100001 characters\)" is not a BMC address/);
    expect(message.length).toBeLessThan(400);
  });
});
