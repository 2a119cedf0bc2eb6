import type { EngineTables, Timestamp } from "@racksmith/core/engine";

export type {
  JsonColumn,
  JsonObject,
  JsonValue,
  StateHistoryTable,
  StateObjectsTable,
  StateQueueTable,
  Timestamp,
  WorkLocksTable,
} from "@racksmith/core/engine";

export interface MigrationsTable {
  name: string;
  applied_at: Timestamp;
}

declare module "@racksmith/core/engine" {
  interface EngineTables {
    racksmith_migrations: MigrationsTable;
  }
}

/**
 * Every table Racksmith creates: the engine's table registry, which each feature extends with its own
 * tables by module augmentation (`declare module "@racksmith/core/engine" { interface EngineTables { … } }`).
 */
export type RacksmithDatabase = EngineTables;
