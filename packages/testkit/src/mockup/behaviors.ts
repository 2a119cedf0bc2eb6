import { compileGlob, matchesGlob } from "./globPattern.js";
import type { JsonObject } from "./json.js";
import type { MockupService } from "./mockupService.js";
import { normalizePath } from "./resourcePath.js";
import type { RedfishLeniencies, RedfishRule } from "./strict/index.js";
import type { MockupResponse } from "./types.js";

/** The request a hook sees (headers lower-cased, credentials never included). */
export interface MockupRequestInfo {
  readonly method: string;
  /** Path as sent, without the query. */
  readonly pathname: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The authenticated user, when the service checks authentication. */
  readonly user: string | undefined;
}

export interface MockupHookContext {
  readonly service: MockupService;
  readonly request: MockupRequestInfo;
  /** The parsed JSON body (`{}` when the request had none). */
  readonly body: JsonObject;
}

export interface MockupActionContext extends MockupHookContext {
  /** The action's name as advertised: `#ComputerSystem.Reset`, `#DellJobService.DeleteJobQueue`, … */
  readonly action: string;
  /** The resource that advertises the action. */
  readonly resourcePath: string;
  /** The advertisement itself (`target`, `…@Redfish.AllowableValues`, `@Redfish.ActionInfo`). */
  readonly definition: JsonObject;
}

export interface MockupWriteContext extends MockupHookContext {
  /** The resource before the change, when it exists. */
  readonly current: JsonObject | undefined;
}

export interface MockupResetContext {
  readonly service: MockupService;
  readonly systemPath: string;
  readonly resetType: string;
  readonly powerStateBefore: string | undefined;
  readonly powerStateAfter: string;
  /** The reset counted as a boot: pending BIOS settings and a one-time boot override were applied. */
  readonly booted: boolean;
}

/** A response takes over the request; undefined lets the next hook, then the built-in handling, run. */
export type MockupHookResult = MockupResponse | undefined;
export type MockupHook<Context> = (context: Context) => MockupHookResult | Promise<MockupHookResult>;

/**
 * Vendor side effects layered on the standard semantics, for driver tests. Keys of `actions` are an action name
 * starting with `#` (exact, case-insensitive) or a path glob of the action target; keys of `patch` and `post` are
 * path globs (`*` within a segment, `**` across). Hooks of every behavior run in the order the behaviors were
 * added, before the built-in handling; `onReset` runs after a `ComputerSystem.Reset` changed the power state.
 * Hooks run while the service holds its write lock: change state through `service.read/write/merge/remove/
 * createMember/createTask`, never by calling `service.handle` for a write (it would wait for the lock forever).
 *
 * ```ts
 * service.use({
 *   name: "dell-jobs",
 *   actions: { "#DellJobService.DeleteJobQueue": () => noContent() },
 *   patch: { "/redfish/v1/Systems/*\/Bios/Settings": ({ body }) => undefined },
 *   onReset: async ({ service, systemPath }) => { … },
 * });
 * ```
 */
export interface MockupBehavior {
  readonly name: string;
  readonly actions?: Readonly<Record<string, MockupHook<MockupActionContext>>>;
  readonly patch?: Readonly<Record<string, MockupHook<MockupWriteContext>>>;
  readonly post?: Readonly<Record<string, MockupHook<MockupWriteContext>>>;
  readonly onReset?: (context: MockupResetContext) => void | Promise<void>;
  /**
   * Strict-mode rules this vendor's BMCs are known to relax, each with the real behavior it reproduces
   * (`{ patchProperties: "iDRAC 9 ignores unknown properties in a PATCH and answers 200" }`).
   */
  readonly leniencies?: RedfishLeniencies;
}

interface CompiledHook<Context> {
  readonly matches: (pathname: string, action?: string) => boolean;
  readonly hook: MockupHook<Context>;
}

interface CompiledBehavior {
  readonly behavior: MockupBehavior;
  readonly actions: readonly CompiledHook<MockupActionContext>[];
  readonly patch: readonly CompiledHook<MockupWriteContext>[];
  readonly post: readonly CompiledHook<MockupWriteContext>[];
}

/** The behaviors added to one service, with their keys compiled once. */
export class BehaviorRegistry {
  private compiled: CompiledBehavior[] = [];
  /** The strict-mode rules the added behaviors relax; recomputed when one is added or removed. */
  private relaxed: ReadonlySet<RedfishRule> = new Set();

  add(behavior: MockupBehavior): () => void {
    const entry: CompiledBehavior = {
      behavior,
      actions: compileHooks(behavior.actions, true),
      patch: compileHooks(behavior.patch, false),
      post: compileHooks(behavior.post, false),
    };
    this.compiled.push(entry);
    this.relaxed = relaxedBy(this.compiled);
    return () => {
      this.compiled = this.compiled.filter((candidate) => candidate !== entry);
      this.relaxed = relaxedBy(this.compiled);
    };
  }

  get names(): string[] {
    return this.compiled.map((entry) => entry.behavior.name);
  }

  /** True when a `patch` or `post` hook of some behavior covers this request (a vendor endpoint). */
  hooks(method: string, pathname: string): boolean {
    const hooks =
      method === "PATCH"
        ? this.compiled.flatMap((entry) => entry.patch)
        : method === "POST"
          ? this.compiled.flatMap((entry) => entry.post)
          : [];
    const path = normalizePath(pathname);
    return hooks.some(({ matches }) => matches(path));
  }

  /** The strict-mode rules the added behaviors relax (asked on every request: kept, not recomputed). */
  relaxedRules(): ReadonlySet<RedfishRule> {
    return this.relaxed;
  }

  async runAction(context: MockupActionContext): Promise<MockupHookResult> {
    return runFirst(
      this.compiled.flatMap((entry) => entry.actions),
      context,
      context.request.pathname,
      context.action,
    );
  }

  async runPatch(context: MockupWriteContext): Promise<MockupHookResult> {
    return runFirst(
      this.compiled.flatMap((entry) => entry.patch),
      context,
      context.request.pathname,
    );
  }

  async runPost(context: MockupWriteContext): Promise<MockupHookResult> {
    return runFirst(
      this.compiled.flatMap((entry) => entry.post),
      context,
      context.request.pathname,
    );
  }

  async runReset(context: MockupResetContext): Promise<void> {
    for (const entry of this.compiled) await entry.behavior.onReset?.(context);
  }
}

function relaxedBy(compiled: readonly CompiledBehavior[]): ReadonlySet<RedfishRule> {
  return new Set(compiled.flatMap((entry) => Object.keys(entry.behavior.leniencies ?? {}) as RedfishRule[]));
}

function compileHooks<Context>(
  hooks: Readonly<Record<string, MockupHook<Context>>> | undefined,
  byActionName: boolean,
): CompiledHook<Context>[] {
  return Object.entries(hooks ?? {}).map(([key, hook]) => {
    if (byActionName && key.includes("#")) {
      // `#DellManager.ClearPending` also matches a versioned name like `DellManager.v1_0_0#DellManager.ClearPending`.
      const name = actionSuffix(key);
      return {
        hook,
        matches: (_pathname: string, action?: string) =>
          action !== undefined && actionSuffix(action) === name,
      };
    }
    const pattern = compileGlob(key);
    return { hook, matches: (pathname: string) => matchesGlob(pattern, pathname) };
  });
}

function actionSuffix(name: string): string {
  return name.slice(name.lastIndexOf("#")).toLowerCase();
}

async function runFirst<Context>(
  hooks: readonly CompiledHook<Context>[],
  context: Context,
  pathname: string,
  action?: string,
): Promise<MockupHookResult> {
  const path = normalizePath(pathname);
  for (const { matches, hook } of hooks) {
    if (!matches(path, action)) continue;
    const response = await hook(context);
    if (response) return response;
  }
  return undefined;
}
