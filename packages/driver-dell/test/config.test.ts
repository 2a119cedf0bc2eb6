import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFIG, cli, cliJson } from "./support/cli.js";

const MISSPELLED = fileURLToPath(new URL("./fixtures/misspelled-settings.yaml", import.meta.url));

describe("enabling the driver in racksmith.yaml", () => {
  it("lists the dell driver from the package the config names", async () => {
    const drivers = await cliJson<Array<Record<string, unknown>>>(["drivers", "list", "--config", CONFIG]);
    expect(drivers.find((d) => d.name === "dell")).toMatchObject({
      vendor: "Dell",
      package: "@racksmith/driver-dell",
      version: "0.1.0",
      models: ["PowerEdge R750", "PowerEdge XE9680"],
    });
  });

  it("refuses a misspelled key in the driver's settings, naming it", async () => {
    const run = await cli(["drivers", "list", "--config", MISSPELLED]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/drivers\.dell.*biosProfiels/);
  });
});
