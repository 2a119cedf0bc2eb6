import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/index.js";
import { defineHealthProbe, type HealthProbe } from "./probe.js";
import { emptyHealthReport } from "./report.js";

const polled: HealthProbe = {
  name: "nvme-wear",
  ids: ["NvmeWear"],
  targets: ["host"],
  run: async ({ now }) => emptyHealthReport("nvme-wear", now.toISOString()),
};

describe("defineHealthProbe", () => {
  it("accepts a polled probe and a collecting one", () => {
    expect(defineHealthProbe(polled)).toBe(polled);
    const collecting: HealthProbe = {
      name: "sel-events",
      ids: ["SelEvent"],
      targets: ["bmc"],
      collect: async () => {},
    };
    expect(defineHealthProbe(collecting)).toBe(collecting);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["a name that is not kebab-case", { name: "NvmeWear" }, /name "NvmeWear" must be kebab-case/],
    ["no ids", { ids: [] }, /ids must list at least one probe id/],
    ["an empty id", { ids: ["A", ""] }, /ids must be non-empty strings/],
    ["no targets", { targets: [] }, /targets must list at least one of host, dpu, bmc/],
    ["an unknown target", { targets: ["host", "switch"] }, /unknown targets switch/],
    ["both run and collect", { collect: async () => {} }, /exactly one of run and collect/],
    ["neither run nor collect", { run: undefined }, /exactly one of run and collect/],
    ["a bad interval", { intervalMs: 0 }, /intervalMs must be a positive integer/],
    [
      "a settings schema that is no object",
      { settingsSchema: "strict" },
      /settingsSchema must be a JSON Schema object/,
    ],
  ])("refuses %s", (_, change, pattern) => {
    const probe = { ...polled, ...change } as unknown as HealthProbe;
    expect(() => defineHealthProbe(probe)).toThrow(InvalidArgumentError);
    expect(() => defineHealthProbe(probe)).toThrow(pattern);
  });
});
