import type { RedfishCredentials, RedfishResponse, RequestOptions } from "./client.js";
import { extendedInfoOf, PasswordChangeRequiredError, RedfishHttpError } from "./errors.js";

const SESSIONS_PATH = "/redfish/v1/SessionService/Sessions";

type Send = (
  method: string,
  path: string,
  options: RequestOptions,
) => Promise<RedfishResponse & { text: string }>;

/**
 * Redfish session login: one POST to `SessionService/Sessions`, the `X-Auth-Token` reused by every request,
 * a single shared login when many requests start at once, re-login after `invalidate`, DELETE on logout.
 */
export class SessionAuth {
  private current: { token: string; location: string | undefined } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly credentials: RedfishCredentials,
    private readonly send: Send,
  ) {}

  /** The token in use, if logged in (used to scrub it from error text). */
  get currentToken(): string | undefined {
    return this.current?.token;
  }

  async token(): Promise<string> {
    if (this.current) return this.current.token;
    this.pending ??= this.login().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets the token a request was rejected with; a newer token from a concurrent re-login is kept. */
  invalidate(rejectedToken: string | undefined): void {
    if (this.current && (rejectedToken === undefined || this.current.token === rejectedToken))
      this.current = undefined;
  }

  async logout(): Promise<void> {
    const session = this.current;
    this.current = undefined;
    if (!session?.location) return;
    await this.send("DELETE", session.location, { headers: { "X-Auth-Token": session.token } });
  }

  private async login(): Promise<string> {
    const response = await this.send("POST", SESSIONS_PATH, {
      body: { UserName: this.credentials.username, Password: this.credentials.password },
    });
    const token = response.headers["x-auth-token"];
    if (response.status < 200 || response.status >= 300 || !token) {
      const messages = extendedInfoOf(response.body);
      const args = {
        method: "POST",
        path: SESSIONS_PATH,
        httpStatus: response.status,
        messages,
        // The login body is ours and carries the password; only the BMC's answer may be quoted.
        bodyExcerpt: response.text.slice(0, 200).split(this.credentials.password).join("[redacted]"),
      };
      if (response.status === 403 && messages.some((m) => /PasswordChangeRequired$/.test(m.messageId))) {
        throw new PasswordChangeRequiredError(args);
      }
      if (response.status >= 200 && response.status < 300) {
        throw new RedfishHttpError({
          ...args,
          messages: [{ messageId: "", message: "no X-Auth-Token in the answer" }],
        });
      }
      throw new RedfishHttpError(args);
    }
    const bodyId = (response.body as { "@odata.id"?: unknown } | undefined)?.["@odata.id"];
    const location = response.location ?? (typeof bodyId === "string" ? bodyId : undefined);
    this.current = { token, location };
    return token;
  }
}
