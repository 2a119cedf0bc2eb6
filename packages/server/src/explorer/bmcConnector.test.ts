import { describe, expect, it } from "vitest";
import { bmcUrl, proxyOrigin } from "./bmcConnector.js";

describe("bmcUrl", () => {
  it.each([
    ["10.100.0.5", { scheme: "https" }, "https://10.100.0.5"],
    ["10.100.0.5", { scheme: "https", port: 8443 }, "https://10.100.0.5:8443"],
    ["10.100.0.5:443", { scheme: "http", port: 8443 }, "http://10.100.0.5:443"],
    ["bmc-1.example", { scheme: "http" }, "http://bmc-1.example"],
    ["http://127.0.0.1:9000", { scheme: "https", port: 1 }, "http://127.0.0.1:9000"],
    ["fe80::1", { scheme: "https", port: 443 }, "https://[fe80::1]:443"],
    ["[fe80::1]:8443", { scheme: "https" }, "https://[fe80::1]:8443"],
  ])("%s with %j → %s", (address, options, url) => {
    expect(bmcUrl(address, options)).toBe(url);
  });
});

describe("proxyOrigin", () => {
  it("takes the BMC scheme for a bare host:port and keeps an explicit one", () => {
    expect(proxyOrigin("127.0.0.1:7000", "http")).toBe("http://127.0.0.1:7000");
    expect(proxyOrigin("https://proxy:7000", "http")).toBe("https://proxy:7000");
    expect(proxyOrigin(undefined, "https")).toBeUndefined();
  });
});
