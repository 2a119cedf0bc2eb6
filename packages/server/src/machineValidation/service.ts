import type { HostTest, HostTestRules, Logger } from "@racksmith/core";
import { InvalidArgumentError } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import type { Database } from "../db/index.js";
import {
  enqueueHost,
  hostLifecycleState,
  type ManagedHostState,
  managedHostStateLabel,
  requireHostMachine,
} from "../lifecycle/index.js";
import {
  HostTestsNotLoadedError,
  ValidationRunNotAllowedError,
  ValidationRunNotFoundError,
  ValidationTestNotFoundError,
  ValidationTestReadOnlyError,
} from "./errors.js";
import { type CatalogueTest, MachineValidationStore, type ResultRow, type RunRow } from "./store.js";
import type { RunRequester } from "./tables.js";

/** A run as the APIs show it: its tests by id, what could not run, and each result. */
export interface ValidationRunView {
  id: string;
  machineId: string;
  context: HostTest["contexts"][number];
  requestedBy: RunRequester;
  tests: string[];
  unschedulable: Array<{ testId: string; reason: string }>;
  status: "pending" | "completed";
  passed: boolean | null;
  createdAt: Date;
  completedAt: Date | null;
  results: Array<{
    testId: string;
    exitCode: number | null;
    stdout: string;
    stderr: string;
    startedAt: Date;
    endedAt: Date;
    timedOut: boolean;
    passed: boolean;
    message: string;
  }>;
}

export interface MachineValidationServiceDeps {
  database: Database;
  engine: Pick<StateEngine, "enqueue">;
  logger: Logger;
  /** The host test rules a plugin registered, if any. */
  rules: HostTestRules | undefined;
  clock?: () => Date;
}

/** How many runs `runs` shows, newest first. */
const RUNS_SHOWN = 20;
/** The fields of a test an update may change (the rest are the service's). */
type TestChanges = Partial<Omit<HostTest, "id" | "version" | "verified">>;

/**
 * What `racksmith validation …` does: the test catalogue (site tests added, updated, enabled, verified; built-in
 * ones read-only but for enabling), on-demand runs on Ready hosts, and every run's results.
 */
export class MachineValidationService {
  private readonly store: MachineValidationStore;
  private readonly clock: () => Date;

  constructor(private readonly deps: MachineValidationServiceDeps) {
    this.store = new MachineValidationStore(deps.database.db);
    this.clock = deps.clock ?? (() => new Date());
  }

  tests(): Promise<CatalogueTest[]> {
    return this.store.tests();
  }

  async add(body: unknown): Promise<CatalogueTest> {
    const test = this.rules().parseTest(body);
    return this.store.insert({ ...test, version: "v1", verified: false }, this.clock());
  }

  /** A site test changed: a new version, unverified until an operator verifies it again. */
  async update(id: string, changes: TestChanges): Promise<CatalogueTest> {
    const rules = this.rules();
    const existing = await this.siteTest(id, "updated");
    const { builtIn: _builtIn, updatedAt: _updatedAt, version, verified: _verified, ...fields } = existing;
    const test = rules.parseTest({ ...fields, ...changes, id });
    return this.store.replace({ ...test, version: nextVersion(version), verified: false }, this.clock());
  }

  /** Enabling and disabling work on built-in tests too: a site decides which of them run. */
  async setEnabled(id: string, enabled: boolean): Promise<CatalogueTest> {
    this.rules();
    const existing = await this.requireTest(id);
    const { builtIn: _builtIn, updatedAt: _updatedAt, ...test } = existing;
    return this.store.replace({ ...test, enabled }, this.clock());
  }

  async verify(id: string): Promise<CatalogueTest> {
    this.rules();
    const { builtIn: _builtIn, updatedAt: _updatedAt, ...test } = await this.siteTest(id, "verified");
    return this.store.replace({ ...test, verified: true }, this.clock());
  }

  /**
   * An on-demand run on a Ready host without an instance: the tests named (verified or not), else the enabled
   * verified tests of the on-demand context. Refused when none of them can run, naming why.
   */
  async runOnDemand(hostId: string, testIds?: readonly string[]): Promise<ValidationRunView> {
    const rules = this.rules();
    await this.requireHost(hostId);
    const state = await this.stateOf(hostId);
    if (state?.state !== "ready" || (await this.hasInstance(hostId))) {
      throw new ValidationRunNotAllowedError(
        hostId,
        state
          ? state.state === "ready"
            ? "ready with an instance allocated"
            : managedHostStateLabel(state)
          : "not in the lifecycle yet",
      );
    }
    const facts = await this.store.hostFacts(hostId);
    const selection = rules.select(await this.store.tests(), {
      context: "onDemand",
      platform: facts.inventory?.model ?? "",
      skuId: facts.skuId,
      ...(testIds?.length ? { only: testIds } : {}),
    });
    if (selection.tests.length === 0) {
      const why = selection.unschedulable.map((u) => `${u.testId}: ${u.reason}`).join("; ");
      throw new InvalidArgumentError(
        `no test can run on host ${hostId}${why ? `: ${why}` : " (no enabled, verified on-demand test fits it)"}`,
        {
          details: { field: "tests" },
        },
      );
    }
    const run = await this.store.createRun({
      machineId: hostId,
      context: "onDemand",
      requestedBy: "operator",
      tests: selection.tests,
      unschedulable: selection.unschedulable,
      now: this.clock(),
    });
    await enqueueHost(this.deps.engine, hostId, this.deps.logger);
    return runView(run, []);
  }

  async runs(hostId: string): Promise<ValidationRunView[]> {
    await this.requireHost(hostId);
    const runs = await this.store.runs(hostId, RUNS_SHOWN);
    const results = await this.store.results(runs.map((run) => run.id));
    return runs.map((run) =>
      runView(
        run,
        results.filter((result) => result.run_id === run.id),
      ),
    );
  }

  async run(runId: string): Promise<ValidationRunView> {
    const run = await this.store.run(runId);
    if (!run) throw new ValidationRunNotFoundError(runId);
    return runView(run, await this.store.results([run.id]));
  }

  private rules(): HostTestRules {
    if (!this.deps.rules) throw new HostTestsNotLoadedError();
    return this.deps.rules;
  }

  private async requireTest(id: string): Promise<CatalogueTest> {
    const test = await this.store.test(id);
    if (!test) throw new ValidationTestNotFoundError(id);
    return test;
  }

  private async siteTest(id: string, action: string): Promise<CatalogueTest> {
    const test = await this.requireTest(id);
    if (test.builtIn) throw new ValidationTestReadOnlyError(id, action);
    return test;
  }

  private async requireHost(hostId: string): Promise<void> {
    await requireHostMachine(this.deps.database.db, hostId, "validation tests run on hosts");
  }

  private stateOf(hostId: string): Promise<ManagedHostState | undefined> {
    return hostLifecycleState(this.deps.database.db, hostId);
  }

  private async hasInstance(hostId: string): Promise<boolean> {
    const row = await this.deps.database.db
      .selectFrom("instances")
      .select("id")
      .where("machine_id", "=", hostId)
      .where("terminated_at", "is", null)
      .executeTakeFirst();
    return row !== undefined;
  }
}

/** `v1` → `v2`; any other version gets `.1` added, so it still changes. */
function nextVersion(version: string): string {
  const match = /^v(\d+)$/.exec(version);
  return match ? `v${Number(match[1]) + 1}` : `${version}.1`;
}

function runView(run: RunRow, results: readonly ResultRow[]): ValidationRunView {
  return {
    id: run.id,
    machineId: run.machine_id,
    context: run.context,
    requestedBy: run.requested_by,
    tests: run.tests.map((test) => test.id),
    unschedulable: run.unschedulable,
    status: run.completed_at === null ? "pending" : "completed",
    passed: run.passed,
    createdAt: run.created_at,
    completedAt: run.completed_at,
    results: results.map((result) => ({
      testId: result.test_id,
      exitCode: result.exit_code,
      stdout: result.stdout,
      stderr: result.stderr,
      startedAt: result.started_at,
      endedAt: result.ended_at,
      timedOut: result.timed_out,
      passed: result.passed,
      message: result.message,
    })),
  };
}
