import "reflect-metadata";
import type {
  HostTestRules,
  PluginManifest,
  PluginRegistry,
  SkuRules,
  ValidationRunner,
} from "@racksmith/core";
import {
  type BmcDriverDefinition,
  CORE_VERSION,
  defineBmcDriver,
  isRacksmithError,
  redfishStandardDriver,
} from "@racksmith/core";
import { defineHealthProbe, type HealthProbe } from "@racksmith/core/health";
import { defineInfiniBandFabric, type InfiniBandFabricDefinition } from "@racksmith/core/infiniband";
import { defineNvLinkFabric, type NvLinkFabricDefinition } from "@racksmith/core/nvlink";
import { type DependencyContainer, type InjectionToken, container as rootContainer } from "tsyringe";
import { PluginLoadError } from "./errors.js";
import { checkHostTestRules, checkSkuRules } from "./validationRules.js";
import { checkValidationRunner } from "./validationRunner.js";

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

export interface RegisteredHealthProbe {
  definition: HealthProbe;
  source: PluginSource;
}

/** Injection token of every registered health probe (resolved with `resolveAll`). */
export const HEALTH_PROBE_TOKEN: InjectionToken<RegisteredHealthProbe> = Symbol.for("racksmith.healthProbe");

export interface RegisteredValidationRunner {
  definition: ValidationRunner;
  source: PluginSource;
}

/** Injection token of every registered validation runner (resolved with `resolveAll`). */
export const VALIDATION_RUNNER_TOKEN: InjectionToken<RegisteredValidationRunner> = Symbol.for(
  "racksmith.validationRunner",
);

export interface RegisteredSkuRules {
  definition: SkuRules;
  source: PluginSource;
}

/** Injection token of the registered SKU rules (a site loads at most one set). */
export const SKU_RULES_TOKEN: InjectionToken<RegisteredSkuRules> = Symbol.for("racksmith.skuRules");

export interface RegisteredHostTestRules {
  definition: HostTestRules;
  source: PluginSource;
}

/** Injection token of the registered host test rules (a site loads at most one set). */
export const HOST_TEST_RULES_TOKEN: InjectionToken<RegisteredHostTestRules> =
  Symbol.for("racksmith.hostTestRules");

export interface RegisteredNvLinkFabric {
  definition: NvLinkFabricDefinition;
  source: PluginSource;
}

/** Injection token of every registered NVLink fabric (resolved with `resolveAll`). */
export const NVLINK_FABRIC_TOKEN: InjectionToken<RegisteredNvLinkFabric> =
  Symbol.for("racksmith.nvlinkFabric");

export interface RegisteredInfiniBandFabric {
  definition: InfiniBandFabricDefinition;
  source: PluginSource;
}

/** Injection token of every registered InfiniBand fabric (resolved with `resolveAll`). */
export const INFINIBAND_FABRIC_TOKEN: InjectionToken<RegisteredInfiniBandFabric> = Symbol.for(
  "racksmith.infinibandFabric",
);

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
  private probeSettingsByName = new Map<string, Record<string, unknown>>();

  constructor(parent: DependencyContainer = rootContainer) {
    this.container = parent.createChildContainer();
    this.addBmcDriver(redfishStandardDriver, BUILT_IN_SOURCE);
  }

  /** Runs a plugin's `register` against a registry bound to that plugin. */
  async register(manifest: PluginManifest, specifier: string): Promise<void> {
    const source: PluginSource = { plugin: manifest.name, version: manifest.version, specifier };
    const registry: PluginRegistry = {
      bmcDriver: (definition) => this.addBmcDriver(definition, source),
      healthProbe: (definition) =>
        this.addNamed(
          HEALTH_PROBE_TOKEN,
          "health probe",
          checked(defineHealthProbe, definition, "health probe", source),
          source,
        ),
      validationRunner: (runner) =>
        this.addNamed(
          VALIDATION_RUNNER_TOKEN,
          "validation runner",
          checked(checkValidationRunner, runner, "validation runner", source),
          source,
        ),
      skuRules: (rules) =>
        this.addOnlySet(
          SKU_RULES_TOKEN,
          "SKU rules",
          checked(checkSkuRules, rules, "SKU rules", source),
          source,
        ),
      hostTestRules: (rules) =>
        this.addOnlySet(
          HOST_TEST_RULES_TOKEN,
          "host test rules",
          checked(checkHostTestRules, rules, "host test rules", source),
          source,
        ),
      infinibandFabric: (definition) => this.addInfiniBandFabric(definition, source),
      nvlinkFabric: (definition) => this.addNvLinkFabric(definition, source),
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

  /** NVLink fabrics in registration order (the built-in disabled fabric is not registered). */
  nvlinkFabrics(): RegisteredNvLinkFabric[] {
    return this.container.isRegistered(NVLINK_FABRIC_TOKEN, true)
      ? this.container.resolveAll(NVLINK_FABRIC_TOKEN)
      : [];
  }

  /** InfiniBand fabrics in registration order (the built-in disabled fabric is not registered). */
  infinibandFabrics(): RegisteredInfiniBandFabric[] {
    return this.container.isRegistered(INFINIBAND_FABRIC_TOKEN, true)
      ? this.container.resolveAll(INFINIBAND_FABRIC_TOKEN)
      : [];
  }

  /** Health probes in registration order. */
  healthProbes(): RegisteredHealthProbe[] {
    return this.resolveAll(HEALTH_PROBE_TOKEN);
  }

  /** Validation runners in registration order. */
  validationRunners(): RegisteredValidationRunner[] {
    return this.resolveAll(VALIDATION_RUNNER_TOKEN);
  }

  /** The SKU rules a plugin registered (none, or one). */
  skuRules(): RegisteredSkuRules[] {
    return this.resolveAll(SKU_RULES_TOKEN);
  }

  /** The host test rules a plugin registered (none, or one). */
  hostTestRules(): RegisteredHostTestRules[] {
    return this.resolveAll(HOST_TEST_RULES_TOKEN);
  }

  plugins(): readonly PluginSource[] {
    return this.loaded;
  }

  /** Checked `drivers.<name>` config sections (see `checkPluginSettings`). */
  setDriverSettings(settings: ReadonlyMap<string, Record<string, unknown>>): void {
    this.driverSettingsByName = new Map(settings);
  }

  /** The operator's settings for a driver, handed to it as `DriverContext.settings`. */
  driverSettings(name: string): Readonly<Record<string, unknown>> | undefined {
    return this.driverSettingsByName.get(name);
  }

  /** Checked `healthProbes.<name>` config sections (see `checkPluginSettings`). */
  setProbeSettings(settings: ReadonlyMap<string, Record<string, unknown>>): void {
    this.probeSettingsByName = new Map(settings);
  }

  /** The operator's settings for a health probe, handed to it as its context's `settings`. */
  probeSettings(name: string): Readonly<Record<string, unknown>> | undefined {
    return this.probeSettingsByName.get(name);
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

  private addNvLinkFabric(definition: NvLinkFabricDefinition, source: PluginSource): void {
    let checked: NvLinkFabricDefinition;
    try {
      checked = defineNvLinkFabric(definition);
    } catch (error) {
      throw new PluginLoadError(
        "plugin_invalid",
        source.plugin,
        (error as Error).message,
        "fix the NVLink fabric definition",
      );
    }
    const existing = this.nvlinkFabrics().find((entry) => entry.definition.name === checked.name);
    if (existing) {
      throw new PluginLoadError(
        "plugin_duplicate",
        source.plugin,
        `NVLink fabric ${JSON.stringify(checked.name)} is already registered by ${existing.source.plugin}`,
        `list only one of ${existing.source.plugin} and ${source.plugin} in the config`,
      );
    }
    this.container.register(NVLINK_FABRIC_TOKEN, { useValue: { definition: checked, source } });
  }

  private addInfiniBandFabric(definition: InfiniBandFabricDefinition, source: PluginSource): void {
    let checked: InfiniBandFabricDefinition;
    try {
      checked = defineInfiniBandFabric(definition);
    } catch (error) {
      throw new PluginLoadError(
        "plugin_invalid",
        source.plugin,
        (error as Error).message,
        "fix the InfiniBand fabric definition",
      );
    }
    const existing = this.infinibandFabrics().find((entry) => entry.definition.name === checked.name);
    if (existing) {
      throw new PluginLoadError(
        "plugin_duplicate",
        source.plugin,
        `InfiniBand fabric ${JSON.stringify(checked.name)} is already registered by ${existing.source.plugin}`,
        `list only one of ${existing.source.plugin} and ${source.plugin} in the config`,
      );
    }
    this.container.register(INFINIBAND_FABRIC_TOKEN, { useValue: { definition: checked, source } });
  }

  /** Registers rules a site has one set of (SKU rules, host test rules), refusing a second set. */
  private addOnlySet<T extends { readonly name: string }>(
    token: InjectionToken<{ definition: T; source: PluginSource }>,
    kind: string,
    rules: T,
    source: PluginSource,
  ): void {
    const [existing] = this.resolveAll(token);
    if (existing) {
      throw new PluginLoadError(
        "plugin_duplicate",
        source.plugin,
        `${kind} ${JSON.stringify(rules.name)}: ${existing.source.plugin} already registered ${kind} (${JSON.stringify(existing.definition.name)}) and a site uses one set`,
        `list only one of ${existing.source.plugin} and ${source.plugin} in the config`,
      );
    }
    this.container.register(token, { useValue: { definition: rules, source } });
  }

  private resolveAll<T>(token: InjectionToken<T>): T[] {
    return this.container.isRegistered(token, true) ? this.container.resolveAll(token) : [];
  }

  /** Registers a named contribution, refusing a name another plugin (or the same one) already took. */
  private addNamed<T extends { readonly name: string }>(
    token: InjectionToken<{ definition: T; source: PluginSource }>,
    kind: string,
    definition: T,
    source: PluginSource,
  ): void {
    const existing = this.resolveAll(token).find((entry) => entry.definition.name === definition.name);
    if (existing) {
      throw new PluginLoadError(
        "plugin_duplicate",
        source.plugin,
        `${kind} ${JSON.stringify(definition.name)} is already registered by ${existing.source.plugin}`,
        existing.source.plugin === source.plugin
          ? `register each ${kind} once, under its own name`
          : `list only one of ${existing.source.plugin} and ${source.plugin} in the config`,
      );
    }
    this.container.register(token, { useValue: { definition, source } });
  }
}

/** Runs a definition check, turning its error into a PluginLoadError that names the plugin. */
function checked<T>(check: (definition: T) => T, definition: T, kind: string, source: PluginSource): T {
  try {
    return check(definition);
  } catch (error) {
    throw new PluginLoadError(
      "plugin_invalid",
      source.plugin,
      (error as Error).message,
      `fix the ${kind} definition`,
    );
  }
}
