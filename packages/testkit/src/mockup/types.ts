import type { JsonObject, JsonValue } from "./json.js";

/** A request as any transport hands it to {@link MockupService.handle}. */
export interface MockupRequest {
  readonly method: string;
  /** Path with its query string, as sent (`/redfish/v1/Systems?$top=2`). */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** Raw bytes or text as received, or an already parsed JSON value (in-process callers). */
  readonly body?: string | Uint8Array | JsonValue;
}

/** The answer; a transport serializes a JSON `body` and sends a string `body` as is. */
export interface MockupResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: JsonObject | string;
}

export type MockupAuthMode = "none" | "basic" | "session" | "password-change-required";

export const MOCKUP_AUTH_MODES: readonly MockupAuthMode[] = [
  "none",
  "basic",
  "session",
  "password-change-required",
];

export interface MockupCredentials {
  readonly username: string;
  readonly password: string;
}

export const DEFAULT_MOCKUP_CREDENTIALS: MockupCredentials = { username: "root", password: "racksmith" };
