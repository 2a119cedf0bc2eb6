import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/index.js";
import { DEFAULT_SITE_EXPLORER_CONFIG, resolveSiteExplorerConfig } from "./configSchema.js";

describe("siteExplorer config", () => {
  it("defaults to NICo's figures: every 120 s, 90 endpoints, 30 at once, 4 new hosts per run", () => {
    const resolved = resolveSiteExplorerConfig(parseConfig("{}").siteExplorer);
    expect(resolved).toEqual(DEFAULT_SITE_EXPLORER_CONFIG);
    expect(resolved).toMatchObject({
      intervalMs: 120_000,
      budget: 90,
      concurrency: 30,
      maxIngestionsPerRun: 4,
    });
    expect(resolved.bmc).toMatchObject({ scheme: "https", insecureTls: false });
  });

  it("fills defaults inside a section that is written", () => {
    const resolved = resolveSiteExplorerConfig(
      parseConfig("siteExplorer:\n  bmcProxy: 127.0.0.1:7000\n  bmc:\n    scheme: http\n    port: 8000\n")
        .siteExplorer,
    );
    expect(resolved.bmcProxy).toBe("127.0.0.1:7000");
    expect(resolved.bmc).toMatchObject({
      scheme: "http",
      port: 8000,
      requestTimeoutMs: 20_000,
      explorationTimeoutMs: 120_000,
      auth: "basic",
    });
    expect(resolved.lockout).toEqual(DEFAULT_SITE_EXPLORER_CONFIG.lockout);
  });

  it.each([
    ["siteExplorer:\n  budget: 0\n", "siteExplorer.budget"],
    ["siteExplorer:\n  bmc:\n    scheme: ftp\n", "siteExplorer.bmc.scheme"],
    ["siteExplorer:\n  lockout:\n    tries: 3\n", "siteExplorer.lockout: unknown key tries"],
  ])("refuses %j naming the key", (text, key) => {
    expect(() => parseConfig(text)).toThrow(key.split(":")[0] as string);
  });

  it("gives every exploration a deadline of 120 s by default, at least one request's timeout", () => {
    expect(resolveSiteExplorerConfig().bmc.explorationTimeoutMs).toBe(120_000);
    expect(
      resolveSiteExplorerConfig({ bmc: { requestTimeoutMs: 500, explorationTimeoutMs: 500 } }).bmc,
    ).toMatchObject({ requestTimeoutMs: 500, explorationTimeoutMs: 500 });
    expect(() =>
      resolveSiteExplorerConfig({ bmc: { requestTimeoutMs: 30_000, explorationTimeoutMs: 10_000 } }),
    ).toThrow(
      "siteExplorer.bmc.explorationTimeoutMs (10000) must be at least siteExplorer.bmc.requestTimeoutMs (30000)",
    );
    // Raising only the request timeout past the default deadline says which value is the default.
    expect(() => resolveSiteExplorerConfig({ bmc: { requestTimeoutMs: 180_000 } })).toThrow(
      "siteExplorer.bmc.explorationTimeoutMs (120000, the default) must be at least siteExplorer.bmc.requestTimeoutMs (180000)",
    );
    expect(() => parseConfig("siteExplorer:\n  bmc:\n    explorationTimeoutMs: 0\n")).toThrow(
      "siteExplorer.bmc.explorationTimeoutMs",
    );
  });

  it("checks values given in code too", () => {
    expect(() => resolveSiteExplorerConfig({ concurrency: 0 })).toThrow(/siteExplorer\.concurrency/);
  });
});
