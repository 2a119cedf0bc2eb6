import "reflect-metadata";
import { type DependencyContainer, type InjectionToken, container as rootContainer } from "tsyringe";
import { type BmcDriverDefinition, defineBmcDriver } from "../drivers/index.js";
import { isRacksmithError } from "../errors/index.js";
import { redfishStandardDriver } from "../standard/index.js";
import { CORE_VERSION } from "../version.js";
import { PluginLoadError } from "./errors.js";
import type { PluginManifest, PluginRegistry } from "./manifest.js";

/** Where a registration came from, for `racksmith drivers list` and error messages. */
export interface PluginSource {
  plugin: string;
  version: string;
  /** The config entry (package name or path) that loaded it; `built-in` for the core's own. */
  specifier: string;
}

export interface RegisteredBmcDriver {
  definition: BmcDriverDefinition;
  source: PluginSource;
}

/** Injection token of every registered BMC driver (resolved with `resolveAll`). */
export const BMC_DRIVER_TOKEN: InjectionToken<RegisteredBmcDriver> = Symbol.for("racksmith.bmcDriver");

export const BUILT_IN_SOURCE: PluginSource = {
  plugin: "@racksmith/core",
  version: CORE_VERSION,
  specifier: "built-in",
};

/**
 * Owns the dependency-injection container plugins register into. Each host has its own child container, so
 * two hosts in one process (tests, several services) never see each other's plugins. The core's
 * `RedfishStandard` is registered first, as a built-in.
 */
export class PluginHost {
  readonly container: DependencyContainer;
  private readonly loaded: PluginSource[] = [];
  private driverSettingsByName = new Map<string, Record<string, unknown>>();

  constructor(parent: DependencyContainer = rootContainer) {
    this.container = parent.createChildContainer();
    this.addBmcDriver(redfishStandardDriver, BUILT_IN_SOURCE);
  }

  /** Runs a plugin's `register` against a registry bound to that plugin. */
  async register(manifest: PluginManifest, specifier: string): Promise<void> {
    const source: PluginSource = { plugin: manifest.name, version: manifest.version, specifier };
    const registry: PluginRegistry = {
      bmcDriver: (definition) => this.addBmcDriver(definition, source),
    };
    try {
      await manifest.register(registry);
    } catch (error) {
      if (error instanceof PluginLoadError) throw error;
      const problem = isRacksmithError(error) || error instanceof Error ? error.message : String(error);
      throw new PluginLoadError(
        "plugin_register_failed",
        manifest.name,
        `register() failed: ${problem}`,
        "fix the plugin or remove it from the config",
        { cause: error },
      );
    }
    this.loaded.push(source);
  }

  bmcDrivers(): RegisteredBmcDriver[] {
    return this.container.isRegistered(BMC_DRIVER_TOKEN, true)
      ? this.container.resolveAll(BMC_DRIVER_TOKEN)
      : [];
  }

  /** Driver definitions in registration order (the built-in standard driver first). */
  bmcDriverDefinitions(): BmcDriverDefinition[] {
    return this.bmcDrivers().map((entry) => entry.definition);
  }

  plugins(): readonly PluginSource[] {
    return this.loaded;
  }

  /** Checked `drivers.<name>` config sections (see `checkDriverSettings`). */
  setDriverSettings(settings: ReadonlyMap<string, Record<string, unknown>>): void {
    this.driverSettingsByName = new Map(settings);
  }

  /** The operator's settings for a driver, handed to it as `DriverContext.settings`. */
  driverSettings(name: string): Readonly<Record<string, unknown>> | undefined {
    return this.driverSettingsByName.get(name);
  }

  private addBmcDriver(definition: BmcDriverDefinition, source: PluginSource): void {
    let checked: BmcDriverDefinition;
    try {
      checked = defineBmcDriver(definition);
    } catch (error) {
      throw new PluginLoadError(
        "plugin_invalid",
        source.plugin,
        (error as Error).message,
        "fix the driver definition",
      );
    }
    const existing = this.bmcDrivers().find((entry) => entry.definition.name === checked.name);
    if (existing) {
      throw new PluginLoadError(
        "plugin_duplicate",
        source.plugin,
        `driver ${JSON.stringify(checked.name)} is already registered by ${existing.source.plugin}`,
        `list only one of ${existing.source.plugin} and ${source.plugin} in the config`,
      );
    }
    this.container.register(BMC_DRIVER_TOKEN, { useValue: { definition: checked, source } });
  }
}
