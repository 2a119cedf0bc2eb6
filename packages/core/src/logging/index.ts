export { childLogger, type Logger, silentLogger } from "./logger.js";
export { REDACTED, redactSecrets, redactUrl, scrubSecrets } from "./redact.js";
