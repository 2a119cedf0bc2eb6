import type { Logger } from "@racksmith/core";
import type { StateEngine } from "@racksmith/core/engine";
import type { Registry } from "prom-client";
import type { ApiContext, ObjectStateDto, ReadinessCheck, VersionInfo } from "../api/index.js";
import { type Database, DatabaseUnavailableError, migrationStatus } from "../db/index.js";

/** Binds the transports to the running engine and database. */
export function engineApiContext(deps: {
  engine: StateEngine;
  database: Database;
  metrics: Registry;
  logger: Logger;
  version: () => VersionInfo;
  objectTypes: () => readonly string[];
  /** Features' own readiness checks. */
  featureReadiness?: () => Promise<ReadinessCheck[]>;
}): ApiContext {
  const { engine, database } = deps;
  return {
    logger: deps.logger,
    metrics: deps.metrics,
    version: deps.version,
    objectTypes: deps.objectTypes,
    getObjectState: async (objectType, objectId, historyLimit) =>
      (await engine.getObjectState(objectType, objectId, { historyLimit })) as ObjectStateDto | undefined,
    listObjects: async (objectType, options) =>
      (await engine.listObjects(objectType, options)) as ObjectStateDto[],
    enqueue: (objectType, objectId) => engine.enqueue(objectType, objectId),
    readiness: async (): Promise<ReadinessCheck[]> => {
      try {
        await database.ping();
      } catch (error) {
        // The reason without the location: a data directory's path is not the API's to show.
        const reason = error instanceof DatabaseUnavailableError ? error.reason : "unreachable";
        return [{ name: "database", ok: false, detail: `${database.label}: ${reason}` }];
      }
      const status = await migrationStatus(database);
      return [
        { name: "database", ok: true, detail: database.label },
        {
          name: "migrations",
          ok: status.pending.length === 0,
          detail: status.pending.length
            ? `pending: ${status.pending.join(", ")}`
            : `${status.applied.length} applied`,
        },
        ...((await deps.featureReadiness?.()) ?? []),
      ];
    },
  };
}
