import { readFileSync } from "node:fs";

/** The CLI's own version, read from its package.json (one small file, so `racksmith --version` stays fast). */
export const CLI_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
