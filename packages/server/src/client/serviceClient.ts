import { type ErrorStatus, HTTP_STATUS_BY_ERROR_STATUS, RacksmithError } from "@racksmith/core";

/**
 * An error the service answered with, keeping its stable code. Unlike `RacksmithError`, `code` is a `string`,
 * not the catalogue's `ErrorCode`: it is read from another process's answer, which may be a newer server
 * with codes this client's catalogue does not know yet, or no Racksmith error body at all (`http_<status>`).
 * Branch on it with `hasErrorCode(error, "…")` (typed on the code asked for, and it recognises this class by
 * its `code` and `status`), never by comparing `code` to a string.
 */
export class ServiceError extends Error {
  readonly code: string;
  readonly status: ErrorStatus;
  readonly details: Record<string, unknown>;

  constructor(code: string, status: ErrorStatus, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.status = status;
    this.details = details;
  }

  toJSON(): { code: string; status: ErrorStatus; message: string; details: Record<string, unknown> } {
    return { code: this.code, status: this.status, message: this.message, details: this.details };
  }
}

/**
 * A small client of the service's REST API: JSON in and out; an unreachable service is `service_unreachable`,
 * an error answer a `ServiceError` with the service's code and details.
 */
export class ServiceClient {
  /** The service's base URL, without a trailing slash (`http://127.0.0.1:8080`). */
  readonly base: string;
  private readonly token: string | undefined;

  /** `token`: sent as `Authorization: Bearer <token>` with every request. */
  constructor(url: string, options: { token?: string | undefined } = {}) {
    this.base = url.replace(/\/+$/, "");
    this.token = options.token;
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new RacksmithError(
        "service_unreachable",
        "UNAVAILABLE",
        `cannot reach the Racksmith service at ${this.base}: ${reason}`,
      );
    }
    const text = await response.text();
    const parsed: unknown = text ? safeJson(text) : undefined;
    if (!response.ok) {
      const error = (
        parsed as {
          error?: { code?: string; status?: string; message?: string; details?: Record<string, unknown> };
        }
      )?.error;
      throw new ServiceError(
        error?.code ?? `http_${response.status}`,
        isErrorStatus(error?.status) ? error.status : "INTERNAL",
        error?.message ?? `${method} ${path} answered HTTP ${response.status}`,
        error?.details ?? {},
      );
    }
    return parsed as T;
  }

  get<T = unknown>(path: string): Promise<T> {
    return this.request<T>("GET", path);
  }
}

function isErrorStatus(value: unknown): value is ErrorStatus {
  return typeof value === "string" && Object.hasOwn(HTTP_STATUS_BY_ERROR_STATUS, value);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
