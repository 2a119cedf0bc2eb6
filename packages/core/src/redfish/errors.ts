import { RacksmithError } from "../errors/index.js";

/** An extended-info message from a Redfish error body (`error.@Message.ExtendedInfo[]`). */
export interface RedfishMessage {
  messageId: string;
  message?: string;
  severity?: string;
  resolution?: string;
  /** Arguments of the message (e.g. the account URI of a PasswordChangeRequired). */
  messageArgs?: string[];
}

/** The BMC answered with a non-success HTTP status. */
export class RedfishHttpError extends RacksmithError {
  readonly httpStatus: number;
  readonly method: string;
  readonly path: string;
  readonly messages: readonly RedfishMessage[];
  readonly bodyExcerpt: string;

  constructor(args: {
    method: string;
    path: string;
    httpStatus: number;
    messages: readonly RedfishMessage[];
    bodyExcerpt: string;
    /** `password_change_required` for its subclass; the status always follows `httpStatus`. */
    code?: "redfish_http_error" | "password_change_required";
  }) {
    const ids = args.messages.map((m) => m.messageId).filter(Boolean);
    const text = args.messages.find((m) => m.message)?.message;
    super(
      args.code ?? "redfish_http_error",
      statusOf(args.httpStatus),
      `${args.method} ${args.path} returned HTTP ${args.httpStatus}${ids.length ? ` (${ids.join(", ")})` : ""}${
        text ? `: ${text}` : ""
      }`,
      {
        details: {
          httpStatus: args.httpStatus,
          method: args.method,
          path: args.path,
          messageIds: ids,
          bodyExcerpt: args.bodyExcerpt,
        },
      },
    );
    this.httpStatus = args.httpStatus;
    this.method = args.method;
    this.path = args.path;
    this.messages = args.messages;
    this.bodyExcerpt = args.bodyExcerpt;
  }

  /** True when any extended-info MessageId ends with the given suffix (registry versions vary). */
  hasMessageId(suffix: string): boolean {
    return this.messages.some((m) => m.messageId === suffix || m.messageId.endsWith(`.${suffix}`));
  }
}

/** 403 whose MessageId ends in `PasswordChangeRequired`: the account must change its password first. */
export class PasswordChangeRequiredError extends RedfishHttpError {
  constructor(args: ConstructorParameters<typeof RedfishHttpError>[0]) {
    super({ ...args, code: "password_change_required" });
  }
}

/** The connection could not be made or was dropped (refused, reset, DNS, TLS). */
export class RedfishConnectionError extends RacksmithError {
  constructor(
    readonly endpoint: string,
    reason: string,
    options: { cause?: unknown; errno?: string } = {},
  ) {
    super("redfish_connection_error", "UNAVAILABLE", `cannot reach BMC ${endpoint}: ${reason}`, {
      cause: options.cause,
      details: { endpoint, reason, ...(options.errno ? { errno: options.errno } : {}) },
    });
  }
}

/** A connect, request or task deadline passed. */
export class RedfishTimeoutError extends RacksmithError {
  constructor(
    readonly endpoint: string,
    readonly phase: "connect" | "request" | "task",
    readonly timeoutMs: number,
    what: string,
    options: { cause?: unknown } = {},
  ) {
    super(
      "redfish_timeout",
      "DEADLINE_EXCEEDED",
      `${what} on ${endpoint}: ${phase} timed out after ${timeoutMs} ms`,
      {
        cause: options.cause,
        details: { endpoint, phase, timeoutMs },
      },
    );
  }
}

/**
 * The caller aborted the request through an `AbortSignal` (the client's or the request's own): an
 * exploration's deadline, a shutdown. Whether a request already sent took effect on the BMC is unknown.
 */
export class RedfishAbortedError extends RacksmithError {
  constructor(
    readonly endpoint: string,
    what: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super("redfish_aborted", "ABORTED", `${what} on ${endpoint}: aborted${reason ? ` (${reason})` : ""}`, {
      cause: options.cause,
      details: { endpoint, reason },
    });
  }
}

/** The BMC answered 2xx but the body is not JSON, or not a JSON object. */
export class RedfishMalformedResponseError extends RacksmithError {
  constructor(
    readonly method: string,
    readonly path: string,
    reason: string,
    readonly bodyExcerpt: string,
  ) {
    super(
      "redfish_malformed_response",
      "UNAVAILABLE",
      `${method} ${path} returned a malformed body (${reason}): ${JSON.stringify(bodyExcerpt)}`,
      { details: { method, path, reason, bodyExcerpt } },
    );
  }
}

/** A task monitor ended in a failed state (Exception, Killed, Cancelled, …). */
export class RedfishTaskFailedError extends RacksmithError {
  constructor(
    readonly taskPath: string,
    readonly taskState: string,
    messages: readonly RedfishMessage[],
  ) {
    const text = messages.map((m) => m.message ?? m.messageId).join("; ");
    super(
      "redfish_task_failed",
      "ABORTED",
      `task ${taskPath} ended in state ${taskState}${text ? `: ${text}` : ""}`,
      {
        details: { taskPath, taskState, messageIds: messages.map((m) => m.messageId) },
      },
    );
  }
}

function statusOf(httpStatus: number): RacksmithError["status"] {
  if (httpStatus === 400 || httpStatus === 405 || httpStatus === 422) return "INVALID_ARGUMENT";
  if (httpStatus === 401) return "UNAUTHENTICATED";
  if (httpStatus === 403) return "PERMISSION_DENIED";
  if (httpStatus === 404) return "NOT_FOUND";
  if (httpStatus === 409) return "ABORTED";
  if (httpStatus === 412 || httpStatus === 428) return "FAILED_PRECONDITION";
  if (httpStatus === 429) return "RESOURCE_EXHAUSTED";
  if (httpStatus === 501) return "UNIMPLEMENTED";
  if (httpStatus >= 500) return "UNAVAILABLE";
  return "INTERNAL";
}

/** Reads `error.@Message.ExtendedInfo` (or a bare `@Message.ExtendedInfo`) from a parsed error body. */
export function extendedInfoOf(body: unknown): RedfishMessage[] {
  if (!body || typeof body !== "object") return [];
  const record = body as Record<string, unknown>;
  const error = record.error as Record<string, unknown> | undefined;
  const infos = (error?.["@Message.ExtendedInfo"] ?? record["@Message.ExtendedInfo"]) as unknown;
  const list: RedfishMessage[] = [];
  if (Array.isArray(infos)) {
    for (const info of infos) {
      if (info && typeof info === "object") {
        const i = info as Record<string, unknown>;
        list.push({
          messageId: String(i.MessageId ?? ""),
          ...(typeof i.Message === "string" ? { message: i.Message } : {}),
          ...(typeof i.Severity === "string" ? { severity: i.Severity } : {}),
          ...(typeof i.Resolution === "string" ? { resolution: i.Resolution } : {}),
          ...(Array.isArray(i.MessageArgs) ? { messageArgs: i.MessageArgs.map(String) } : {}),
        });
      }
    }
  }
  if (list.length === 0 && error && typeof error.code === "string") {
    list.push({
      messageId: error.code,
      ...(typeof error.message === "string" ? { message: error.message } : {}),
    });
  }
  return list;
}
