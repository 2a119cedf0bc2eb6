import type { GaugeMetric, Metrics } from "@racksmith/core/engine";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** The core's metrics contract backed by a prom-client registry (what `/metrics` serves). */
export function prometheusMetrics(registry: Registry): Metrics {
  const registers = [registry];
  return {
    counter: (spec) => new Counter({ ...spec, registers }),
    histogram: (spec) => new Histogram({ ...spec, registers }),
    gauge: (spec) => new Gauge({ ...spec, registers }),
    sampledGauge<L extends string>(
      spec: { name: string; help: string; labelNames: L[] },
      fill: (gauge: GaugeMetric<L>) => Promise<void>,
    ): void {
      const gauge: Gauge<L> = new Gauge({
        ...spec,
        registers,
        collect: async () => {
          gauge.reset();
          await fill(gauge);
        },
      });
    },
  };
}
