import { randomUUID } from "node:crypto";
import type { HostTest, MachineInventory, ValidationRunContext } from "@racksmith/core";
import type { Kysely, Selectable } from "kysely";
import { isUniqueViolation, type RacksmithDatabase } from "../db/index.js";
import { ValidationTestExistsError } from "./errors.js";
import type { RunRequester, ValidationRunsTable, ValidationTestResultsTable } from "./tables.js";
import "./tables.js";

type Db = Kysely<RacksmithDatabase>;

export interface CatalogueTest extends HostTest {
  builtIn: boolean;
  updatedAt: Date;
}

export type RunRow = Selectable<ValidationRunsTable>;
export type ResultRow = Selectable<ValidationTestResultsTable>;

/** The test catalogue, the runs and their results as stored; every method is one or two statements. */
export class MachineValidationStore {
  constructor(private readonly db: Db) {}

  async tests(): Promise<CatalogueTest[]> {
    const rows = await this.db.selectFrom("validation_tests").selectAll().orderBy("id").execute();
    return rows.map(toTest);
  }

  async test(id: string): Promise<CatalogueTest | undefined> {
    const row = await this.db
      .selectFrom("validation_tests")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toTest(row) : undefined;
  }

  /**
   * Writes the plugin's built-in tests: new ones added, changed ones replaced — keeping whether the site
   * enabled them — and any a site test took the id of left alone.
   */
  async writeBuiltIns(tests: readonly HostTest[], now: Date): Promise<void> {
    for (const test of tests) {
      const existing = await this.test(test.id);
      if (existing && !existing.builtIn) continue;
      const definition = JSON.stringify({ ...test, enabled: existing?.enabled ?? test.enabled });
      await this.db
        .insertInto("validation_tests")
        .values({ id: test.id, definition, built_in: true, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column("id").doUpdateSet({ definition, updated_at: now }))
        .execute();
    }
  }

  async insert(test: HostTest, now: Date): Promise<CatalogueTest> {
    try {
      const row = await this.db
        .insertInto("validation_tests")
        .values({
          id: test.id,
          definition: JSON.stringify(test),
          built_in: false,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toTest(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ValidationTestExistsError(test.id);
      throw error;
    }
  }

  async replace(test: HostTest, now: Date): Promise<CatalogueTest> {
    const row = await this.db
      .updateTable("validation_tests")
      .set({ definition: JSON.stringify(test), updated_at: now })
      .where("id", "=", test.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTest(row);
  }

  async createRun(run: {
    machineId: string;
    context: ValidationRunContext;
    requestedBy: RunRequester;
    tests: HostTest[];
    unschedulable: Array<{ testId: string; reason: string }>;
    now: Date;
  }): Promise<RunRow> {
    return this.db
      .insertInto("validation_runs")
      .values({
        id: randomUUID(),
        machine_id: run.machineId,
        context: run.context,
        requested_by: run.requestedBy,
        tests: JSON.stringify(run.tests),
        unschedulable: JSON.stringify(run.unschedulable),
        created_at: run.now,
        // A run with nothing to run is over at once (and failed: what was asked could not be scheduled).
        ...(run.tests.length === 0 ? { completed_at: run.now, passed: false } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The host's run of a context not completed yet, else the newest made since `since`. */
  async currentRun(
    machineId: string,
    context: ValidationRunContext,
    since: Date,
  ): Promise<RunRow | undefined> {
    return this.db
      .selectFrom("validation_runs")
      .selectAll()
      .where("machine_id", "=", machineId)
      .where("context", "=", context)
      .where((eb) => eb.or([eb("completed_at", "is", null), eb("created_at", ">=", since)]))
      .orderBy("completed_at", (ob) => ob.desc().nullsFirst())
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /** The host's oldest run not completed. */
  async pendingRun(machineId: string, requestedBy?: RunRequester): Promise<RunRow | undefined> {
    let query = this.db
      .selectFrom("validation_runs")
      .selectAll()
      .where("machine_id", "=", machineId)
      .where("completed_at", "is", null);
    if (requestedBy) query = query.where("requested_by", "=", requestedBy);
    return query.orderBy("created_at").limit(1).executeTakeFirst();
  }

  async run(runId: string): Promise<RunRow | undefined> {
    return this.db.selectFrom("validation_runs").selectAll().where("id", "=", runId).executeTakeFirst();
  }

  async runs(machineId: string, limit: number): Promise<RunRow[]> {
    return this.db
      .selectFrom("validation_runs")
      .selectAll()
      .where("machine_id", "=", machineId)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
  }

  async results(runIds: readonly string[]): Promise<ResultRow[]> {
    if (runIds.length === 0) return [];
    return this.db
      .selectFrom("validation_test_results")
      .selectAll()
      .where("run_id", "in", [...runIds])
      .orderBy("run_id")
      .orderBy("started_at")
      .execute();
  }

  /** Stores a run's results and completes it, once: false when it was completed already. */
  async completeRun(
    runId: string,
    results: ReadonlyArray<Omit<ResultRow, "run_id">>,
    verdict: { passed: boolean; unschedulable: Array<{ testId: string; reason: string }> },
    now: Date,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const completed = await trx
        .updateTable("validation_runs")
        .set({
          passed: verdict.passed,
          unschedulable: JSON.stringify(verdict.unschedulable),
          completed_at: now,
        })
        .where("id", "=", runId)
        .where("completed_at", "is", null)
        .executeTakeFirst();
      if (Number(completed.numUpdatedRows) === 0) return false;
      if (results.length > 0) {
        await trx
          .insertInto("validation_test_results")
          .values(results.map((result) => ({ ...result, run_id: runId })))
          .execute();
      }
      return true;
    });
  }

  /** What selection needs of a host: its chassis model (the agent's inventory) and its SKU, if any. */
  async hostFacts(machineId: string): Promise<{ inventory: MachineInventory | null; skuId: string | null }> {
    const [reports, sku] = await Promise.all([
      this.db
        .selectFrom("machine_reports")
        .select("inventory")
        .where("machine_id", "=", machineId)
        .executeTakeFirst(),
      // The SKU feature's table: read only, for tests limited to some SKUs.
      this.db
        .selectFrom("machine_skus")
        .select("sku_id")
        .where("machine_id", "=", machineId)
        .executeTakeFirst(),
    ]);
    return { inventory: reports?.inventory ?? null, skuId: sku?.sku_id ?? null };
  }
}

function toTest(row: Selectable<RacksmithDatabase["validation_tests"]>): CatalogueTest {
  return { ...row.definition, builtIn: row.built_in, updatedAt: row.updated_at };
}
