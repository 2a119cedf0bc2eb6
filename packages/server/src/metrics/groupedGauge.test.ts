import { Gauge, Registry } from "prom-client";
import { describe, expect, it, vi } from "vitest";
import { ExpositionRegistry, GroupedGauge, type GroupedSeries } from "./groupedGauge.js";

type Labels = "machine" | "sensor";
const LABELS: Labels[] = ["machine", "sensor"];
const one = (machine: string, sensor: string, value: number): GroupedSeries<Labels> => ({
  labels: { machine, sensor },
  value,
});

/** The same groups, set in a GroupedGauge and in prom-client's own Gauge: both registries' whole text. */
async function bothWays(groups: ReadonlyArray<readonly [string, GroupedSeries<Labels>[]]>) {
  const [exposition, plain, reference] = [new ExpositionRegistry(), new Registry(), new Registry()];
  const grouped = new GroupedGauge<Labels>("x_reading", "A reading\\ of \n things", LABELS, [
    exposition,
    plain,
  ]);
  const gauge = new Gauge<Labels>({
    name: "x_reading",
    help: "A reading\\ of \n things",
    labelNames: ["machine", "sensor"],
    registers: [reference],
  });
  for (const [group, series] of groups) {
    grouped.set(group, series);
    for (const { labels, value } of series) gauge.set(labels, value);
  }
  return {
    exposition: await exposition.metrics(),
    plain: await plain.metrics(),
    reference: await reference.metrics(),
  };
}

describe("GroupedGauge", () => {
  it.each([
    ["no series", []],
    ["one group", [["h-1", [one("h-1", "cpu", 41), one("h-1", "inlet", 21.5)]]]],
    [
      "groups in the order first set, values of every kind",
      [
        ["h-2", [one("h-2", "fan", 12_000), one("h-2", "volts", -0.25)]],
        ["h-1", [one("h-1", "cpu", Number.NaN), one("h-1", "a", Number.POSITIVE_INFINITY)]],
        ["h-3", [one("h-3", "b", Number.NEGATIVE_INFINITY), one("h-3", "tiny", 1e-7)]],
      ],
    ],
    ["label values escaped", [["h-1", [one('h"1', 'say "hi"\\ or\nbye', 1)]]]],
    ["a label value that is not a string", [["h-1", [one("h-1", undefined as never, 3)]]]],
  ] as const)("prints what prom-client's gauge prints: %s", async (_, groups) => {
    const { exposition, plain, reference } = await bothWays(groups as never);
    expect(exposition).toBe(reference);
    expect(plain).toBe(reference);
  });

  it("replaces a group whole, removes one set empty or removed, and empties on reset", async () => {
    const registry = new ExpositionRegistry();
    const gauge = new GroupedGauge<Labels>("x_reading", "A reading", LABELS, [registry]);
    gauge.set("h-1", [one("h-1", "cpu", 40), one("h-1", "inlet", 20)]);
    gauge.set("h-2", [one("h-2", "cpu", 50)]);
    gauge.set("h-3", [one("h-3", "cpu", 60)]);
    gauge.set("h-1", [one("h-1", "cpu", 41)]);
    gauge.set("h-2", []);
    const lines = async () => (await registry.metrics()).split("\n").filter((line) => line.startsWith("x_"));
    expect(await lines()).toEqual([
      'x_reading{machine="h-1",sensor="cpu"} 41',
      'x_reading{machine="h-3",sensor="cpu"} 60',
    ]);
    gauge.remove("h-3");
    expect(await lines()).toEqual(['x_reading{machine="h-1",sensor="cpu"} 41']);
    registry.resetMetrics();
    expect(await lines()).toEqual([]);
  });

  it("reads as JSON like any gauge, and its text alone", async () => {
    const registry = new ExpositionRegistry();
    const gauge = new GroupedGauge<Labels>("x_reading", "A reading", LABELS, [registry]);
    gauge.set("h-1", [one("h-1", "cpu", 40)]);
    expect(await registry.getMetricsAsJSON()).toEqual([
      {
        name: "x_reading",
        help: "A reading",
        type: "gauge",
        aggregator: "sum",
        values: [{ labels: { machine: "h-1", sensor: "cpu" }, value: 40 }],
      },
    ]);
    expect(await registry.getSingleMetricAsString("x_reading")).toBe(
      '# HELP x_reading A reading\n# TYPE x_reading gauge\nx_reading{machine="h-1",sensor="cpu"} 40',
    );
  });

  it("is printed from its prepared text by the service's registry, formatted series by series by any other", async () => {
    const [exposition, plain] = [new ExpositionRegistry(), new Registry()];
    const gauge = new GroupedGauge<Labels>("x_reading", "A reading", LABELS, [exposition, plain]);
    gauge.set("h-1", [one("h-1", "cpu", 40)]);
    const get = vi.spyOn(gauge, "get");
    await exposition.metrics();
    expect(get).not.toHaveBeenCalled();
    await plain.metrics();
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("is one name in a registry: a second metric of its name is refused", () => {
    const registry = new ExpositionRegistry();
    new GroupedGauge<Labels>("x_reading", "A reading", LABELS, [registry]);
    expect(() => new Gauge({ name: "x_reading", help: "again", registers: [registry] })).toThrow(
      /already been registered/,
    );
  });
});
