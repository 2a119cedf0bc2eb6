import type { BmcDriverDefinition } from "../drivers/index.js";
import type { InfiniBandFabricDefinition } from "../fabric/infiniband/index.js";
import type { NvLinkFabricDefinition } from "../fabric/nvlink/index.js";
import type { HealthProbe } from "../health/index.js";
import type { HostTestRules, SkuRules, ValidationRunner } from "../validation/index.js";

/** What a plugin's `register` receives: the only way a plugin adds anything to the core. */
export interface PluginRegistry {
  /** Adds a BMC driver; its name must be unique across all loaded plugins. */
  bmcDriver(definition: BmcDriverDefinition): void;
  /** Adds a health probe (polled or collecting); its name must be unique across all loaded plugins. */
  healthProbe(definition: HealthProbe): void;
  /** Adds a validation test runner; its name must be unique across all loaded plugins. */
  validationRunner(runner: ValidationRunner): void;
  /** Adds the rules of SKU (bill-of-materials) validation; a site loads at most one set. */
  skuRules(rules: SkuRules): void;
  /** Adds the rules of machine validation tests run on hosts; a site loads at most one set. */
  hostTestRules(rules: HostTestRules): void;
  /** Adds an InfiniBand fabric (UFM, …); its name must be unique across all loaded plugins. */
  infinibandFabric(definition: InfiniBandFabricDefinition): void;
  /** Adds an NVLink fabric (NMX-M, …); its name must be unique across all loaded plugins. */
  nvlinkFabric(definition: NvLinkFabricDefinition): void;
}

export interface PluginManifest {
  /** The npm package name (or a unique name for a file plugin). */
  name: string;
  /** The plugin's own version, usually read from its package.json. */
  version: string;
  /** Major of the core plugin API the plugin was built for. */
  apiVersion: number;
  description?: string;
  register(registry: PluginRegistry): void | Promise<void>;
}

/** Tags a manifest so the loader can tell a plugin from any other default export (across package copies). */
export const PLUGIN_MARKER = "@racksmith/plugin";

export type DefinedPlugin = PluginManifest & { readonly $$type: typeof PLUGIN_MARKER };

/** A plugin package's default export. */
export function definePlugin(manifest: PluginManifest): DefinedPlugin {
  return { ...manifest, $$type: PLUGIN_MARKER };
}
