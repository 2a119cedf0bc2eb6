import { DEFAULT_MOCKUP_CREDENTIALS, type MockupCredentials } from "../mockup/types.js";

/** The BMC a `racksmith redfish` command talks to. */
export interface RedfishCliTarget {
  /** The mockup server's URL (`server.url`). */
  readonly url: string;
  /** Default `DEFAULT_MOCKUP_CREDENTIALS`. */
  readonly credentials?: MockupCredentials;
  /** Sent as `--auth` when given (the command's default is Basic). */
  readonly auth?: "basic" | "session" | "none";
  /** A racksmith config (`--config`), e.g. one that names the driver package under test. */
  readonly config?: string;
}

/**
 * The argv of `racksmith redfish … <operation>` against a mockup, for tests that run the CLI in-process
 * (`runCliInMemory`/`runCliJson` of `@racksmith/cli`):
 *
 * ```ts
 * await runCliJson(redfishCliArgs({ url: server.url, config: CONFIG }, "detect"), PACKAGE_DIR);
 * ```
 */
export function redfishCliArgs(target: RedfishCliTarget, ...operation: string[]): string[] {
  const { username, password } = target.credentials ?? DEFAULT_MOCKUP_CREDENTIALS;
  return [
    "redfish",
    "--address",
    target.url,
    "--username",
    username,
    "--password",
    password,
    ...(target.auth ? ["--auth", target.auth] : []),
    ...(target.config ? ["--config", target.config] : []),
    ...operation,
  ];
}
