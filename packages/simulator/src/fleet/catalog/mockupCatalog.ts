import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { type DriverConformanceProfile, type MockupBehavior, MockupTree } from "@racksmith/testkit";
import { FleetMockupError } from "../errors.js";
import { discoverIdentity, IdentityRewriter, type MockupIdentity } from "../identity/index.js";
import type { MockupSource } from "../scenario/index.js";
import { type ResolvedMockup, resolveMockup } from "./resolveMockup.js";

/** What every virtual BMC of one mockup shares: the tree, its identity and rewrite, the vendor behaviors. */
export interface MockupTemplate {
  readonly dir: string;
  /** The mockup's folder name (`poweredge-r750`). */
  readonly model: string;
  readonly tree: MockupTree;
  readonly identity: MockupIdentity;
  readonly rewriter: IdentityRewriter;
  readonly behaviors: readonly MockupBehavior[];
}

export interface MockupCatalogOptions {
  /** Where scenario paths and packages are looked up from. */
  readonly baseDir: string;
  /** Behaviors per vendor key, used instead of the vendor package's `./testing` ones. */
  readonly behaviors?: Readonly<Record<string, readonly MockupBehavior[]>>;
}

/**
 * Opens each mockup once however many virtual BMCs serve it: the tree (lazily loaded), the identity scan and
 * the vendor behaviors (`conformance[driver].behaviors` of the package's `./testing` entry, imported at
 * runtime so the simulator never depends on a driver package).
 */
export class MockupCatalog {
  private readonly trees = new Map<
    string,
    Promise<{ tree: MockupTree; identity: MockupIdentity; rewriter: IdentityRewriter }>
  >();
  private readonly templates = new Map<string, Promise<MockupTemplate>>();

  constructor(private readonly options: MockupCatalogOptions) {}

  /** The template of a scenario entry; `key` names it in errors (`hosts[1].dpu`). */
  template(source: MockupSource, key: string): Promise<MockupTemplate> {
    const resolved = resolveMockup(source, this.options.baseDir, key);
    const cacheKey = [
      resolved.dir,
      resolved.testingEntry,
      source.driver,
      source.behaviors,
      source.vendor,
    ].join("|");
    let template = this.templates.get(cacheKey);
    if (!template) {
      template = this.build(source, resolved, key);
      this.templates.set(cacheKey, template);
    }
    return template;
  }

  private async build(source: MockupSource, resolved: ResolvedMockup, key: string): Promise<MockupTemplate> {
    const [opened, behaviors] = await Promise.all([
      this.open(resolved.dir),
      this.behaviorsOf(source, resolved, key),
    ]);
    return {
      dir: resolved.dir,
      model: basename(resolved.dir),
      ...opened,
      behaviors,
    };
  }

  private open(
    dir: string,
  ): Promise<{ tree: MockupTree; identity: MockupIdentity; rewriter: IdentityRewriter }> {
    let opened = this.trees.get(dir);
    if (!opened) {
      opened = (async () => {
        const tree = await MockupTree.open(dir);
        const identity = await discoverIdentity(tree);
        return { tree, identity, rewriter: new IdentityRewriter(identity) };
      })();
      this.trees.set(dir, opened);
    }
    return opened;
  }

  private async behaviorsOf(
    source: MockupSource,
    resolved: ResolvedMockup,
    key: string,
  ): Promise<readonly MockupBehavior[]> {
    const given = this.options.behaviors?.[source.vendor];
    if (given) return given;
    if (source.behaviors === false || !resolved.testingEntry) return [];
    let profiles: Record<string, DriverConformanceProfile> | undefined;
    try {
      const module = (await import(pathToFileURL(resolved.testingEntry).href)) as {
        conformance?: Record<string, DriverConformanceProfile>;
      };
      profiles = module.conformance;
    } catch (error) {
      throw new FleetMockupError(
        `${key}.behaviors`,
        `importing ${resolved.packageName}/testing failed: ${(error as Error).message} (build the package, or set behaviors: false)`,
        { cause: error },
      );
    }
    const names = Object.keys(profiles ?? {});
    const name = source.driver ?? (names.length === 1 ? names[0] : undefined);
    if (!name || !profiles?.[name]) {
      if (names.length === 0) return [];
      throw new FleetMockupError(
        `${key}.driver`,
        `${resolved.packageName}/testing has conformance profiles for ${names.join(", ")}: set driver to one of them`,
      );
    }
    return profiles[name].behaviors ?? [];
  }
}
