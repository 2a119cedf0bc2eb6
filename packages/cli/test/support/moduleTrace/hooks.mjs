// Module hooks (they run on node's loader thread) that record each resolved URL; see register.mjs.
import { appendFileSync } from "node:fs";

let trace = "";

export function initialize(data) {
  trace = data.trace;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(trace, `${resolved.url}\n`);
  return resolved;
}
