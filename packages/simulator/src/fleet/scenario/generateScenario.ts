import type { FleetScenario, HostGroup } from "./types.js";

/** A host model of a driver package and the BlueField its card is (what its DPU BMCs serve). */
export interface HostModel {
  readonly vendor: string;
  readonly model: string;
  readonly dpuModel: string;
}

/** One model per vendor, each with the DPU generation its mockup's card is. */
export const DEFAULT_HOST_MODELS: readonly HostModel[] = [
  { vendor: "dell", model: "poweredge-r750", dpuModel: "bluefield-2" },
  { vendor: "lenovo", model: "thinksystem-sr670-v2", dpuModel: "bluefield-2" },
  { vendor: "hpe", model: "proliant-dl380-gen11", dpuModel: "bluefield-3" },
  { vendor: "supermicro", model: "sys-821ge-tnhr", dpuModel: "bluefield-3" },
];

/** Every host model the vendor driver packages ship a mockup of, with the DPU generation of its card. */
export const ALL_HOST_MODELS: readonly HostModel[] = [
  { vendor: "dell", model: "poweredge-r750", dpuModel: "bluefield-2" },
  { vendor: "dell", model: "poweredge-xe9680", dpuModel: "bluefield-3" },
  { vendor: "hpe", model: "proliant-dl380-gen11", dpuModel: "bluefield-3" },
  { vendor: "hpe", model: "proliant-dl385-gen10-plus-v2", dpuModel: "bluefield-3" },
  { vendor: "lenovo", model: "thinksystem-sr670-v2", dpuModel: "bluefield-2" },
  { vendor: "lenovo", model: "thinksystem-sr675-v3", dpuModel: "bluefield-3" },
  { vendor: "supermicro", model: "sys-121h-tnr", dpuModel: "bluefield-3" },
  { vendor: "supermicro", model: "sys-821ge-tnhr", dpuModel: "bluefield-3" },
];

export interface GenerateScenarioOptions extends Omit<FleetScenario, "hosts"> {
  /** How many hosts, spread evenly over `models`. */
  hosts: number;
  /** Default {@link DEFAULT_HOST_MODELS}. */
  models?: readonly HostModel[];
  /** Give each host its DPU BMC (default true). */
  withDpus?: boolean;
}

/** A scenario of N hosts over a few models, one BlueField DPU each (end-to-end tests, benchmarks). */
export function generateScenario(options: GenerateScenarioOptions): FleetScenario {
  const { hosts, models = DEFAULT_HOST_MODELS, withDpus = true, ...rest } = options;
  const groups: HostGroup[] = models
    .map((model, index) => ({
      vendor: model.vendor,
      model: model.model,
      count: Math.floor(hosts / models.length) + (index < hosts % models.length ? 1 : 0),
      ...(withDpus ? { dpu: { model: model.dpuModel } } : {}),
    }))
    .filter((group) => group.count > 0);
  return { ...rest, hosts: groups };
}
