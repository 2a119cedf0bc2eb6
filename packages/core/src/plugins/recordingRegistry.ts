import type { BmcDriverDefinition } from "../drivers/index.js";
import type { InfiniBandFabricDefinition } from "../fabric/infiniband/index.js";
import type { NvLinkFabricDefinition } from "../fabric/nvlink/index.js";
import type { HealthProbe } from "../health/index.js";
import type { HostTestRules, SkuRules, ValidationRunner } from "../validation/index.js";
import type { PluginManifest, PluginRegistry } from "./manifest.js";

/** Everything a plugin registered, by contract. */
export interface PluginRegistrations {
  bmcDrivers: BmcDriverDefinition[];
  healthProbes: HealthProbe[];
  validationRunners: ValidationRunner[];
  skuRules: SkuRules[];
  hostTestRules: HostTestRules[];
  infinibandFabrics: InfiniBandFabricDefinition[];
  nvlinkFabrics: NvLinkFabricDefinition[];
}

/**
 * Runs a plugin's `register` against a registry that only records (no checks, no container): what a plugin's
 * own tests use to see what it contributes.
 */
export async function collectRegistrations(
  plugin: Pick<PluginManifest, "register">,
): Promise<PluginRegistrations> {
  const registered: PluginRegistrations = {
    bmcDrivers: [],
    healthProbes: [],
    validationRunners: [],
    skuRules: [],
    hostTestRules: [],
    infinibandFabrics: [],
    nvlinkFabrics: [],
  };
  const registry: PluginRegistry = {
    bmcDriver: (definition) => void registered.bmcDrivers.push(definition),
    healthProbe: (definition) => void registered.healthProbes.push(definition),
    validationRunner: (runner) => void registered.validationRunners.push(runner),
    skuRules: (rules) => void registered.skuRules.push(rules),
    hostTestRules: (rules) => void registered.hostTestRules.push(rules),
    infinibandFabric: (definition) => void registered.infinibandFabrics.push(definition),
    nvlinkFabric: (definition) => void registered.nvlinkFabrics.push(definition),
  };
  await plugin.register(registry);
  return registered;
}
