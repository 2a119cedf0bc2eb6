export { channelName } from "@racksmith/core/engine";
export {
  type Database,
  DEFAULT_DATA_DIR,
  type OpenDatabaseOptions,
  openDatabase,
} from "./database.js";
export {
  asRemovalRace,
  DatabaseNotMigratedError,
  DatabaseUnavailableError,
  isForeignKeyViolation,
  isUniqueViolation,
  MigrationError,
  RecordRemovedError,
} from "./errors.js";
export { assertMigrated, type MigrateOptions, migrate, migrationStatus } from "./migrate.js";
export { MIGRATIONS, type Migration } from "./migrations/index.js";
export type {
  JsonColumn,
  JsonObject,
  JsonValue,
  MigrationsTable,
  RacksmithDatabase,
  StateHistoryTable,
  StateObjectsTable,
  StateQueueTable,
  Timestamp,
  WorkLocksTable,
} from "./schema.js";
export {
  type ConnectionStats,
  registerConnectionMetrics,
  registerStatementMetrics,
  type StatementStats,
} from "./statementStats.js";
