import { describe, expect, it } from "vitest";
import { configProblemFix } from "./configFixes.js";

describe("configProblemFix", () => {
  it.each([
    [
      "unknown key serverr (did you mean server?); allowed: plugins, server",
      "edit racksmith.yaml: rename serverr to server",
    ],
    [
      "unknown key fabrics.ib; allowed: infiniband, nvlink",
      "edit racksmith.yaml: remove fabrics.ib, or rename it to an allowed key",
    ],
    ["unknown key extra", "edit racksmith.yaml: remove extra, or rename it to an allowed key"],
    ["missing required key plugins", "edit racksmith.yaml: add plugins"],
    [
      "fabrics.infiniband: missing required key endpoint",
      "edit racksmith.yaml: add fabrics.infiniband.endpoint",
    ],
    ["file not found", "create racksmith.yaml, or pass --config with the right path"],
    ["line 3: Map keys must be unique", "edit racksmith.yaml: fix the YAML at that line"],
    ["cannot read: EACCES", "make racksmith.yaml readable by this user"],
    [
      'server.http: must look like "127.0.0.1:8080"',
      'edit racksmith.yaml: fix server.http (it must look like "127.0.0.1:8080")',
    ],
    [
      "drivers.dell: no driver named dell is loaded (loaded: fixture)",
      "edit racksmith.yaml: fix drivers.dell",
    ],
    ["something else entirely", "edit racksmith.yaml to fix this"],
  ])("%s", (problem, fix) => {
    expect(configProblemFix(problem, "racksmith.yaml")).toBe(fix);
  });
});
