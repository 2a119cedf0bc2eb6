import { InvalidArgumentError } from "@racksmith/core";
import type { InstanceConfig, InstanceInterface } from "../tables.js";
import {
  FABRIC_SECTIONS,
  type FabricSection,
  isObject,
  parseInfiniBandSection,
  parseNvLinkSection,
} from "./fabricSections.js";

/** A DPU's host-facing function: a physical function, optionally one of its virtual functions. */
const FUNCTION_PATTERN = /^pf\d+(vf\d+)?$/;

/**
 * A tenant's instance config, checked (each error names the field); absent config or network means no
 * interfaces. `field` is where the config sits in the request; `fabrics` are the configured fabric
 * sections (a section of a fabric that is not configured is refused).
 */
export function parseInstanceConfig(
  value: unknown,
  field = "config",
  fabrics: ReadonlySet<string> = new Set(),
): InstanceConfig {
  if (value === undefined || value === null) return { network: { interfaces: [] } };
  if (!isObject(value)) throw new InvalidArgumentError(`${field}: must be an object`);
  const config: InstanceConfig = { network: parseNetwork(value.network, field) };
  for (const [key, section] of Object.entries(value)) {
    if (key === "network" || section === undefined || section === null) continue;
    if (!(key in FABRIC_SECTIONS)) {
      throw new InvalidArgumentError(`${field}.${key}: unknown section (network, infiniband, nvlink)`, {
        details: { field: `${field}.${key}` },
      });
    }
    const name = key as FabricSection;
    if (!fabrics.has(name)) {
      throw new InvalidArgumentError(
        `${field}.${name}: no ${name === "infiniband" ? "InfiniBand" : "NVLink"} fabric is configured (${FABRIC_SECTIONS[name]})`,
        { details: { field: `${field}.${name}` } },
      );
    }
    if (name === "infiniband") config.infiniband = parseInfiniBandSection(section, `${field}.infiniband`);
    else config.nvlink = parseNvLinkSection(section, `${field}.nvlink`);
  }
  return config;
}

function parseNetwork(network: unknown, field: string): InstanceConfig["network"] {
  if (network === undefined || network === null) return { interfaces: [] };
  if (!isObject(network)) throw new InvalidArgumentError(`${field}.network: must be an object`);
  const raw = network.interfaces ?? [];
  if (!Array.isArray(raw)) throw new InvalidArgumentError(`${field}.network.interfaces: must be an array`);
  const seen = new Set<string>();
  const interfaces = raw.map((entry: unknown, i): InstanceInterface => {
    const where = `${field}.network.interfaces[${i}]`;
    if (!isObject(entry)) throw new InvalidArgumentError(`${where}: must be an object`);
    const { function: fn, network: net } = entry;
    if (typeof fn !== "string" || !FUNCTION_PATTERN.test(fn)) {
      throw new InvalidArgumentError(
        `${where}.function: ${JSON.stringify(fn)} is not a DPU function (pf<N> or pf<N>vf<M>, e.g. pf0, pf0vf1)`,
        { details: { field: `${where}.function` } },
      );
    }
    if (typeof net !== "string" || net.trim() === "") {
      throw new InvalidArgumentError(`${where}.network: must be a non-empty network name`, {
        details: { field: `${where}.network` },
      });
    }
    if (seen.has(fn)) {
      throw new InvalidArgumentError(`${where}.function: ${fn} is configured twice`, {
        details: { field: `${where}.function` },
      });
    }
    seen.add(fn);
    return { function: fn, network: net };
  });
  return { interfaces };
}
