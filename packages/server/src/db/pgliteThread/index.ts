export { type EmbeddedPostgres, PgliteThread } from "./pgliteThread.js";
