import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FleetScenarioError } from "../errors.js";
import { generateScenario } from "./generateScenario.js";
import { checkScenario, loadScenarioFile, parseScenario } from "./loadScenario.js";

const SAMPLE = fileURLToPath(new URL("../../../scenarios/sample.yaml", import.meta.url));

function problemsOf(value: unknown): string {
  try {
    checkScenario(value);
  } catch (error) {
    expect(error).toBeInstanceOf(FleetScenarioError);
    return (error as FleetScenarioError).message;
  }
  throw new Error("the scenario was accepted");
}

const HOST = { vendor: "dell", model: "poweredge-r750" };

describe("scenario validation names the key", () => {
  it.each<[string, unknown, RegExp]>([
    ["no hosts", {}, /\(top level\): needs hosts/],
    ["empty hosts", { hosts: [] }, /hosts: must list at least one entry/],
    ["unknown key", { hosts: [HOST], anomaly: {} }, /anomaly: is not a known key/],
    ["count not a number", { hosts: [{ ...HOST, count: "3" }] }, /hosts\[0\]\.count: must be integer/],
    ["count zero", { hosts: [{ ...HOST, count: 0 }] }, /hosts\[0\]\.count: must be at least 1/],
    [
      "vendor spelling",
      { hosts: [{ vendor: "Dell EMC", model: "x" }] },
      /hosts\[0\]\.vendor: must be lower-case/,
    ],
    ["no mockup", { hosts: [{ vendor: "dell" }] }, /hosts\[0\]: names no mockup/],
    ["dpu without mockup", { hosts: [{ ...HOST, dpu: { count: 1 } }] }, /hosts\[0\]\.dpu: names no mockup/],
    [
      "dpuMode without dpu",
      { hosts: [{ ...HOST, dpuMode: "nic" }] },
      /hosts\[0\]\.dpuMode: is nic but the hosts have no dpu/,
    ],
    [
      "bad dpuMode",
      { hosts: [{ ...HOST, dpuMode: "smart" }] },
      /hosts\[0\]\.dpuMode: must be one of "dpu", "nic", "no-dpu"/,
    ],
    [
      "unknown anomaly",
      { hosts: [HOST], anomalies: { slowish: 1 } },
      /anomalies\.slowish: is not a known key/,
    ],
    ["negative anomaly", { hosts: [HOST], anomalies: { slow: -1 } }, /anomalies\.slow: must be at least 0/],
    ["lockout without threshold", { hosts: [HOST], lockout: {} }, /lockout: needs threshold/],
    [
      "lockout threshold 0",
      { hosts: [HOST], lockout: { threshold: 0 } },
      /lockout\.threshold: must be at least 1/,
    ],
    [
      "anomaly target",
      { hosts: [HOST], anomalies: { slow: { count: 1, target: "bmc" } } },
      /anomalies\.slow\.target: must be one of "host", "dpu"/,
    ],
    [
      "credentials without username",
      { hosts: [HOST], credentials: { dell: { password: "x" } } },
      /credentials\.dell: needs username/,
    ],
    [
      "credentials of an unused vendor",
      { hosts: [HOST], credentials: { del: { username: "root" } } },
      /credentials\.del: no host or DPU is of this vendor \(dell\)/,
    ],
    [
      "address pool",
      { hosts: [HOST], addressPool: "10.100.0.0" },
      /addressPool: must be an IPv4 network in CIDR notation/,
    ],
    [
      "tiny address pool",
      { hosts: [HOST], addressPool: "10.100.0.0/31" },
      /addressPool: must be a \/30 or larger network/,
    ],
  ])("%s", (_name, value, expected) => {
    expect(problemsOf(value)).toMatch(expected);
  });

  it("lists every problem at once", () => {
    const message = problemsOf({ hosts: [{ vendor: "dell", count: 0 }], seed: [] });
    expect(message).toMatch(/hosts\[0\]\.count/);
    expect(message).toMatch(/seed: must be integer or string/);
  });
});

describe("scenario files", () => {
  it("loads the sample scenario that ships with the package", async () => {
    const scenario = await loadScenarioFile(SAMPLE);
    expect(scenario.hosts.map((group) => group.vendor)).toEqual(["dell", "lenovo", "hpe", "supermicro"]);
    expect(Object.keys(scenario.anomalies ?? {})).toHaveLength(9);
  });

  it("reads JSON as well as YAML, and names the file when it is broken", async () => {
    expect(parseScenario(JSON.stringify({ hosts: [HOST] })).hosts).toEqual([HOST]);
    const dir = mkdtempSync(join(tmpdir(), "racksmith-scenario-"));
    writeFileSync(join(dir, "bad.yaml"), "hosts: [\n  - vendor: dell\n    model: [");
    await expect(loadScenarioFile(join(dir, "bad.yaml"))).rejects.toThrow(
      /bad\.yaml: \(file\): is not valid YAML or JSON/,
    );
    await expect(loadScenarioFile(join(dir, "missing.yaml"))).rejects.toThrow(
      /missing\.yaml: \(file\): cannot be read/,
    );
  });
});

describe("generateScenario", () => {
  it("spreads N hosts over the default models, one BlueField DPU each", () => {
    const scenario = generateScenario({ hosts: 10, anomalies: { wrongSerial: 3 } });
    expect(scenario.hosts.map((group) => [group.vendor, group.count, group.dpu?.model])).toEqual([
      ["dell", 3, "bluefield-2"],
      ["lenovo", 3, "bluefield-2"],
      ["hpe", 2, "bluefield-3"],
      ["supermicro", 2, "bluefield-3"],
    ]);
    expect(scenario.anomalies).toEqual({ wrongSerial: 3 });
    expect(() => checkScenario(scenario)).not.toThrow();
    expect(generateScenario({ hosts: 2, withDpus: false }).hosts.every((group) => !group.dpu)).toBe(true);
  });
});
