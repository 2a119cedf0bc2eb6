// `node --import ./register.mjs …` appends the URL of every module the process resolves to
// $RACKSMITH_MODULE_TRACE, one a line: what the start-up test reads to see which modules a command loads.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url, { data: { trace: process.env.RACKSMITH_MODULE_TRACE } });
