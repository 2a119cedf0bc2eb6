import { InvalidArgumentError, type Logger, silentLogger } from "@racksmith/core";
import { Semaphore } from "@racksmith/core/redfish";
import { checkLockoutPolicy, type MockupLockoutPolicy } from "./accountLockout.js";
import { authenticate } from "./auth.js";
import { BehaviorRegistry, type MockupBehavior } from "./behaviors.js";
import { type CreatedMember, createMember, ensureCollection } from "./collections.js";
import { handleDelete } from "./handleDelete.js";
import { handleGet } from "./handleGet.js";
import { handlePatch } from "./handlePatch.js";
import { handlePost } from "./handlePost.js";
import type { JsonObject } from "./json.js";
import { type MockupActionRecord, MockupState } from "./mockupState.js";
import { MockupTree } from "./mockupTree.js";
import { type MockupPowerListener, PowerListeners } from "./powerEvents.js";
import { redfishError } from "./redfishMessages.js";
import { parseJsonBody } from "./requestBody.js";
import { splitTarget } from "./resourcePath.js";
import type { MockupServiceSettings, ServiceCore, ServiceRequest } from "./serviceCore.js";
import { expireAllSessions } from "./sessions.js";
import {
  checkOdataVersion,
  checkPrivileges,
  checkRuleNames,
  methodNotAllowedHere,
  type RedfishRule,
  StrictRules,
  unknownMethod,
} from "./strict/index.js";
import { type CreatedTask, createTask, type MockupTaskOptions } from "./tasks.js";
import {
  DEFAULT_MOCKUP_CREDENTIALS,
  MOCKUP_AUTH_MODES,
  type MockupAuthMode,
  type MockupCredentials,
  type MockupRequest,
  type MockupResponse,
} from "./types.js";

export interface MockupServiceOptions {
  /** Default `none`. */
  readonly auth?: MockupAuthMode;
  /** The account the BMC accepts (default root / racksmith). */
  readonly credentials?: MockupCredentials;
  /** Server-driven paging: collections longer than this are answered a page at a time. */
  readonly pageSize?: number;
  /** How long update tasks run before they read as Completed (default 200 ms). */
  readonly taskDurationMs?: number;
  readonly behaviors?: readonly MockupBehavior[];
  /** Lock an account after this many failed logins in a row (off by default). */
  readonly lockout?: MockupLockoutPolicy;
  /**
   * Follow the Redfish specification strictly (default true): methods and Allow, OData-Version, query
   * parameters, PATCH semantics, privileges, subscriptions, HTTPS redirect. `false` relaxes every rule.
   */
  readonly strict?: boolean;
  /** Rules relaxed even in strict mode (vendor behaviors can relax more; see `REDFISH_RULES`). */
  readonly lenient?: readonly RedfishRule[];
  /** Clock for task completion and lockouts (tests may pass a fake one). */
  readonly now?: () => number;
  readonly logger?: Logger;
}

/**
 * One virtual BMC: the request semantics of a Redfish service (GET with query options, PATCH, POST, DELETE,
 * actions, tasks, sessions, auth modes) over a {@link MockupState} layered on a shared {@link MockupTree}. It knows
 * nothing of HTTP, so one process can host many of them behind any transport. Writes are serialized per service
 * so a read-modify-write never loses a concurrent update.
 */
export class MockupService {
  readonly state: MockupState;
  readonly settings: MockupServiceSettings;
  private readonly behaviors = new BehaviorRegistry();
  private readonly writes = new Semaphore(1);
  private readonly logger: Logger;
  private readonly core: ServiceCore;
  private readonly power: PowerListeners;

  constructor(
    readonly tree: MockupTree,
    options: MockupServiceOptions = {},
  ) {
    const authMode = options.auth ?? "none";
    if (!MOCKUP_AUTH_MODES.includes(authMode)) {
      throw new InvalidArgumentError(
        `auth must be one of ${MOCKUP_AUTH_MODES.join(", ")}, got ${String(authMode)}`,
      );
    }
    if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) {
      throw new InvalidArgumentError(`pageSize must be a positive integer, got ${options.pageSize}`);
    }
    const taskDurationMs = options.taskDurationMs ?? 200;
    if (!(Number.isFinite(taskDurationMs) && taskDurationMs >= 0)) {
      throw new InvalidArgumentError(`taskDurationMs must be a non-negative number, got ${taskDurationMs}`);
    }
    checkLockoutPolicy(options.lockout);
    const lenient = checkRuleNames(options.lenient ?? [], "lenient");
    this.settings = { authMode, pageSize: options.pageSize, taskDurationMs, lockout: options.lockout };
    this.state = new MockupState(tree, options.now);
    const credentials = options.credentials ?? DEFAULT_MOCKUP_CREDENTIALS;
    this.state.accounts.set(credentials.username, credentials.password);
    if (authMode === "password-change-required") this.state.passwordChangeRequired.add(credentials.username);
    const logger = options.logger ?? silentLogger;
    this.logger = logger;
    this.power = new PowerListeners((error) =>
      logger.warn({ err: (error as Error).message }, "mockup power listener failed"),
    );
    this.core = {
      service: this,
      state: this.state,
      behaviors: this.behaviors,
      settings: this.settings,
      power: this.power,
      rules: new StrictRules(options.strict ?? true, lenient, () => this.behaviors.relaxedRules()),
    };
    for (const behavior of options.behaviors ?? []) this.use(behavior);
  }

  /** Opens the mockup folder (any layout) or reuses an opened tree, and builds a service over it. */
  static async open(root: string | MockupTree, options: MockupServiceOptions = {}): Promise<MockupService> {
    return new MockupService(typeof root === "string" ? await MockupTree.open(root) : root, options);
  }

  /** Adds vendor behavior; returns a function that removes it again. */
  use(behavior: MockupBehavior): () => void {
    return this.behaviors.add(behavior);
  }

  /**
   * Hears of every reset of a computer system (standard or a vendor's), after it took effect; returns a function
   * that stops listening. The listener runs under the write lock: it must not call `handle` for a write.
   */
  onPowerChange(listener: MockupPowerListener): () => void {
    return this.power.add(listener);
  }

  /** Every action invoked so far, oldest first. */
  get actions(): readonly MockupActionRecord[] {
    return this.state.actions;
  }

  /** The Redfish rules this service enforces now. */
  get rules(): StrictRules {
    return this.core.rules;
  }

  /** Answers one request. Never throws: an unexpected failure is a 500 with a Redfish error body. */
  async handle(request: MockupRequest): Promise<MockupResponse> {
    const method = request.method.toUpperCase();
    const { pathname, query } = splitTarget(request.path);
    const headers = lowerCaseHeaders(request.headers);
    try {
      const refused = unknownMethod(this.core.rules, method) ?? checkOdataVersion(this.core.rules, headers);
      if (refused) return refused;
      const parsed = parseJsonBody(request.body);
      const auth = await authenticate(this.state, this.settings, {
        method,
        pathname,
        headers,
        body: parsed.ok ? parsed.value : undefined,
      });
      if (!auth.ok) return auth.response;
      const serviceRequest: ServiceRequest = {
        method,
        pathname,
        query,
        headers,
        user: auth.user,
        body: request.body,
      };
      const denied =
        (await checkPrivileges(this.core, serviceRequest)) ??
        (await methodNotAllowedHere(this.core, method, pathname));
      if (denied) return denied;
      switch (method) {
        case "GET":
        case "HEAD":
          return await handleGet(this.core, serviceRequest);
        case "PATCH":
          return await this.writes.run(() => handlePatch(this.core, serviceRequest));
        case "POST":
          return await this.writes.run(() => handlePost(this.core, serviceRequest));
        case "DELETE":
          return await this.writes.run(() => handleDelete(this.core, serviceRequest));
        default:
          return redfishError(405, "GeneralError", [], {
            headers: { allow: "GET, HEAD, PATCH, POST, DELETE" },
            message: `${method} is not supported by this service.`,
            resolution: "Use GET, HEAD, PATCH, POST or DELETE.",
          });
      }
    } catch (error) {
      this.logger.error({ method, path: pathname, err: (error as Error).message }, "mockup request failed");
      return redfishError(500, "GeneralError", [], {
        message: `The mockup failed to handle ${method} ${pathname}: ${(error as Error).message}`,
      });
    }
  }

  /** The JSON resource at a path as the BMC currently holds it (undefined when missing or not JSON). */
  async read(path: string): Promise<JsonObject | undefined> {
    return this.state.readJson(path);
  }

  /** Replaces or creates a resource; returns its new ETag. */
  write(path: string, body: JsonObject): string {
    return this.state.write(path, body).etag;
  }

  /** Deep-merges into an existing resource; returns the new ETag, or undefined when there is no such resource. */
  async merge(path: string, patch: JsonObject): Promise<string | undefined> {
    return (await this.state.merge(path, patch))?.etag;
  }

  /** Deletes a resource (and what lies under it) without touching its collection. */
  remove(path: string): void {
    this.state.remove(path);
  }

  /** Adds a member to a collection (created when missing, typed `collectionType`). */
  async createMember(
    collectionPath: string,
    body: JsonObject,
    options: { id?: string; collectionType?: string } = {},
  ): Promise<CreatedMember> {
    const collection = await ensureCollection(
      this.state,
      collectionPath,
      options.collectionType ?? "#Collection",
    );
    return createMember(this.state, collectionPath, collection, body, options.id);
  }

  /** Creates a Task that completes after `durationMs` (default: the service's task duration). */
  async createTask(options: Partial<MockupTaskOptions> = {}): Promise<CreatedTask> {
    return createTask(this.state, {
      ...options,
      durationMs: options.durationMs ?? this.settings.taskDurationMs,
    });
  }

  /** Invalidates every session token (a client must log in again after its next 401). */
  expireSessions(): void {
    expireAllSessions(this.state);
  }
}

function lowerCaseHeaders(headers: MockupRequest["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
