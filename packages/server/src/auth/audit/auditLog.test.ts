import type { KyselyPlugin, RootOperationNode } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CallOutcome } from "../../api/index.js";
import { captureLogger, openTestDatabase, type TestDatabase } from "../../testing/index.js";
import { AuditLog } from "./auditLog.js";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase("auditlog");
});
afterAll(async () => {
  await testDb.close();
});
beforeEach(async () => {
  await testDb.database.db.deleteFrom("audit_log").execute();
});

/** The audit log over the test database, counting the INSERTs it sends. */
function countedAuditLog() {
  let inserts = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind === "InsertQueryNode") inserts++;
      return node as RootOperationNode;
    },
    transformResult: async ({ result }) => result,
  };
  const logs = captureLogger();
  const audit = new AuditLog(testDb.database.db.withPlugin(counter), logs.logger);
  return { audit, logs, inserts: () => inserts };
}

function outcome(requestId: string, method = "RebootCompleted"): CallOutcome {
  return {
    caller: { subject: "machine-1", role: "agent", machine: "machine-1", proof: "certificate" },
    operation: { api: "grpc", service: "racksmith.v1.HostAgent", method },
    target: "machine_id=machine-1",
    result: "OK",
    requestId,
  };
}

describe("the audit log", () => {
  it("writes a row alone at once, and it is listed when record resolves", async () => {
    const { audit, inserts } = countedAuditLog();
    await audit.record(outcome("alone"));
    expect(inserts()).toBe(1);
    const [entry] = await audit.list({ limit: 10 });
    expect(entry).toMatchObject({
      actor: "machine-1",
      role: "agent",
      operation: "racksmith.v1.HostAgent/RebootCompleted",
      target: "machine_id=machine-1",
      result: "OK",
      requestId: "alone",
    });
  });

  it("writes the rows that came while one was written in a few INSERTs, in arrival order", async () => {
    const { audit, inserts } = countedAuditLog();
    const ids = Array.from({ length: 30 }, (_, i) => `r${i}`);
    // The first row's INSERT starts at once; the other 29 arrive while it runs and go in batches of a power of
    // two rows: 16, 8, 4 and 1.
    await Promise.all(ids.map((id) => audit.record(outcome(id))));
    expect(inserts()).toBe(5);
    const listed = await audit.list({ limit: 100 });
    expect(listed.map((entry) => entry.requestId).reverse()).toEqual(ids);
  });

  it("loses only an unwritable row of a batch: the rest are written again one by one, the failure logged", async () => {
    const { audit, logs } = countedAuditLog();
    // PostgreSQL refuses a NUL byte in text.
    await Promise.all([
      audit.record(outcome("first")),
      audit.record(outcome("second")),
      audit.record(outcome("bad\u0000id", "CleanupCompleted")),
      audit.record(outcome("third")),
    ]);
    await audit.record(outcome("after"));
    const listed = await audit.list({ limit: 100 });
    expect(listed.map((entry) => entry.requestId).reverse()).toEqual(["first", "second", "third", "after"]);
    const failures = logs.records.filter((record) => record.message === "audit row not written");
    expect(failures.map((record) => record.fields.operation)).toEqual([
      "racksmith.v1.HostAgent/CleanupCompleted",
    ]);
  });

  it("flush waits for every row recorded before it", async () => {
    const { audit } = countedAuditLog();
    const recorded = Array.from({ length: 5 }, (_, i) => {
      void audit.record(outcome(`f${i}`));
      return `f${i}`;
    });
    await audit.flush();
    const listed = await audit.list({ limit: 10 });
    expect(listed.map((entry) => entry.requestId).sort()).toEqual(recorded);
  });
});
