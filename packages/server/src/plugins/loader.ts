import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CORE_VERSION,
  exportTarget,
  PLUGIN_API_VERSION,
  PLUGIN_MARKER,
  type PluginManifest,
} from "@racksmith/core";
import { Ajv } from "ajv";
import semver from "semver";
import { PluginLoadError } from "./errors.js";
import type { PluginHost } from "./pluginHost.js";

export interface LoadPluginsOptions {
  /** Directory relative paths and package lookups start from (the config file's directory). */
  baseDir: string;
  /**
   * Where package names are looked up when `baseDir`'s node_modules folders do not have them: each directory
   * and its parents, in order. Default: the installation of `@racksmith/server` itself
   * (`PLUGIN_FALLBACK_DIRS`), so a config kept in any folder finds the plugins installed beside the
   * `racksmith` command.
   */
  fallbackDirs?: readonly string[];
  host: PluginHost;
  /** Overridable for tests; default: the running core. */
  coreVersion?: string;
  apiVersion?: number;
}

export interface LoadedPlugin {
  specifier: string;
  manifest: PluginManifest;
  entry: string;
  packageJsonPath: string | undefined;
}

interface PackageJson {
  name?: string;
  version?: string;
  main?: string;
  module?: string;
  exports?: unknown;
  peerDependencies?: Record<string, string>;
}

const manifestSchema = {
  type: "object",
  required: ["name", "version", "apiVersion", "register"],
  properties: {
    name: { type: "string", minLength: 1 },
    version: { type: "string", minLength: 1 },
    apiVersion: { type: "integer", minimum: 1 },
    description: { type: "string" },
  },
};
const validateManifest = new Ajv({ allErrors: true, strict: false }).compile(manifestSchema);

/**
 * Imports exactly the plugins named (package names or file paths), in order, validates each manifest and its
 * compatibility with the running core, and registers it. Stops at the first bad plugin with an error that
 * names it and says how to fix it.
 */
export async function loadPlugins(
  specifiers: readonly string[],
  options: LoadPluginsOptions,
): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const specifier of specifiers) {
    const plugin = await importPlugin(specifier, options);
    await options.host.register(plugin.manifest, specifier);
    loaded.push(plugin);
  }
  return loaded;
}

async function importPlugin(specifier: string, options: LoadPluginsOptions): Promise<LoadedPlugin> {
  const { entry, packageJsonPath, packageJson } = resolvePlugin(
    specifier,
    options.baseDir,
    options.fallbackDirs,
  );
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(entry).href)) as { default?: unknown };
  } catch (error) {
    throw new PluginLoadError(
      "plugin_import_failed",
      specifier,
      `importing ${entry} failed: ${(error as Error).message}`,
      "check that the package is built and its dependencies are installed",
      { cause: error },
    );
  }
  const manifest = checkManifest(specifier, module.default);
  checkApiVersion(manifest, options.apiVersion ?? PLUGIN_API_VERSION);
  if (packageJson) checkCoreRange(manifest, packageJson, options.coreVersion ?? CORE_VERSION);
  return { specifier, manifest, entry, packageJsonPath };
}

function checkManifest(specifier: string, value: unknown): PluginManifest {
  const fix =
    'its default export must be definePlugin({ name, version, apiVersion, register }) from "@racksmith/core"';
  if (!value || typeof value !== "object") {
    throw new PluginLoadError(
      "plugin_invalid",
      specifier,
      "is not a Racksmith plugin (no default export object)",
      fix,
    );
  }
  const problems: string[] = [];
  if (!validateManifest(value)) {
    for (const error of validateManifest.errors ?? []) {
      problems.push(
        error.keyword === "required"
          ? `missing ${String(error.params.missingProperty)}`
          : `${error.instancePath.slice(1)} ${error.message}`,
      );
    }
  }
  const record = value as Record<string, unknown>;
  if ("register" in record && typeof record.register !== "function")
    problems.push("register is not a function");
  if (problems.length === 0 && record.$$type !== PLUGIN_MARKER)
    problems.push("it was not created with definePlugin()");
  if (problems.length) {
    throw new PluginLoadError("plugin_invalid", specifier, `invalid manifest: ${problems.join(", ")}`, fix);
  }
  return value as PluginManifest;
}

function checkApiVersion(manifest: PluginManifest, apiVersion: number): void {
  if (manifest.apiVersion !== apiVersion) {
    throw new PluginLoadError(
      "plugin_api_version_mismatch",
      manifest.name,
      `was built for plugin API ${manifest.apiVersion}, but @racksmith/core ${CORE_VERSION} provides API ${apiVersion}`,
      manifest.apiVersion > apiVersion
        ? "upgrade @racksmith/core, or install an older version of the plugin"
        : `install a version of ${manifest.name} built for plugin API ${apiVersion}`,
    );
  }
}

function checkCoreRange(manifest: PluginManifest, packageJson: PackageJson, coreVersion: string): void {
  const range = packageJson.peerDependencies?.["@racksmith/core"];
  if (!range) {
    throw new PluginLoadError(
      "plugin_invalid",
      manifest.name,
      'its package.json declares no peerDependencies["@racksmith/core"]',
      'add "peerDependencies": { "@racksmith/core": "^<major>.<minor>.0" } naming the core versions it supports',
    );
  }
  if (!semver.validRange(range)) {
    throw new PluginLoadError(
      "plugin_invalid",
      manifest.name,
      `peerDependencies["@racksmith/core"] ${JSON.stringify(range)} is not a semver range`,
      "fix the range in the plugin's package.json",
    );
  }
  if (!semver.satisfies(coreVersion, range, { includePrerelease: true })) {
    throw new PluginLoadError(
      "plugin_core_version_mismatch",
      manifest.name,
      `requires @racksmith/core ${range}, but ${coreVersion} is running`,
      `install a version of ${manifest.name} that supports @racksmith/core ${coreVersion}, or a core within ${range}`,
    );
  }
}

interface ResolvedPlugin {
  entry: string;
  packageJsonPath: string | undefined;
  packageJson: PackageJson | undefined;
}

function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith(".") || isAbsolute(specifier) || /\.(m?js|ts)$/.test(specifier);
}

/**
 * The package folder of this `@racksmith/server` (`src/plugins/` and `dist/plugins/` alike): plugin names the
 * config's folder cannot resolve are looked up from here, i.e. in the installation the `racksmith` command
 * runs from (its own node_modules, then each parent's).
 */
export const PLUGIN_FALLBACK_DIRS: readonly string[] = [
  resolve(fileURLToPath(new URL("../..", import.meta.url))),
];

/**
 * Resolves a path (relative to baseDir) or a package name to its entry file. A package name is looked up in
 * the node_modules folders from baseDir up, then from each of `fallbackDirs` up (default: this server's own
 * installation); the error for a missing package names every place searched.
 */
export function resolvePlugin(
  specifier: string,
  baseDir: string,
  fallbackDirs: readonly string[] = PLUGIN_FALLBACK_DIRS,
): ResolvedPlugin {
  if (isPathSpecifier(specifier)) {
    const target = resolve(baseDir, specifier);
    if (!existsSync(target)) {
      throw new PluginLoadError(
        "plugin_not_found",
        specifier,
        `no file or directory at ${target}`,
        "fix the path in the config",
      );
    }
    if (statSync(target).isDirectory()) return resolvePackageDir(specifier, target);
    // A file plugin is checked against its package only when that package is the plugin itself.
    const owner = findOwningPackage(target);
    return { entry: target, packageJsonPath: owner?.path, packageJson: owner?.json };
  }
  const searched = new Set<string>();
  const starts = [resolve(baseDir), ...fallbackDirs.map((dir) => resolve(dir))];
  const walked: string[] = [];
  for (const start of starts) {
    let fresh = false;
    for (let dir = start; ; dir = dirname(dir)) {
      const modules = join(dir, "node_modules");
      if (!searched.has(modules)) {
        searched.add(modules);
        fresh = true;
        const candidate = join(modules, specifier);
        if (existsSync(join(candidate, "package.json"))) return resolvePackageDir(specifier, candidate);
      }
      if (dirname(dir) === dir) break;
    }
    if (fresh) walked.push(start);
  }
  const places = walked.map((dir) => `${dir} up`).join(", nor from ");
  throw new PluginLoadError(
    "plugin_not_found",
    specifier,
    `package not found in any node_modules folder from ${places}`,
    `install it (npm install ${specifier}) in the config's folder or beside the racksmith command, or fix its name in the config`,
  );
}

function resolvePackageDir(specifier: string, dir: string): ResolvedPlugin {
  const packageJsonPath = join(dir, "package.json");
  if (!existsSync(packageJsonPath)) {
    const index = ["index.js", "index.mjs"].map((name) => join(dir, name)).find((file) => existsSync(file));
    if (!index) {
      throw new PluginLoadError(
        "plugin_not_found",
        specifier,
        `${dir} has no package.json or index.js`,
        "point the config at the plugin's entry file",
      );
    }
    return { entry: index, packageJsonPath: undefined, packageJson: undefined };
  }
  const packageJson = JSON.parse(readFileSync(packageJsonPath, "utf8")) as PackageJson;
  const relative = exportTarget(packageJson.exports) ?? packageJson.module ?? packageJson.main ?? "index.js";
  const entry = resolve(dir, relative);
  if (!existsSync(entry)) {
    throw new PluginLoadError(
      "plugin_not_found",
      specifier,
      `its entry ${entry} does not exist`,
      "build the plugin (npm run build) or fix its package.json exports",
    );
  }
  return { entry, packageJsonPath, packageJson };
}

function findOwningPackage(file: string): { path: string; json: PackageJson } | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (existsSync(path)) {
      const json = JSON.parse(readFileSync(path, "utf8")) as PackageJson;
      return json.peerDependencies?.["@racksmith/core"] ? { path, json } : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
