import { randomUUID } from "node:crypto";

const PLAIN_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The caller's `x-request-id` when it is a plain token (so it can be quoted safely), else a fresh one. */
export function requestIdOf(sent: unknown): string {
  return typeof sent === "string" && PLAIN_REQUEST_ID.test(sent) ? sent : randomUUID();
}
