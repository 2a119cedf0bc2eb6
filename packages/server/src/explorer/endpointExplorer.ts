import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@racksmith/core";
import {
  type BmcDriverDefinition,
  type ConnectOptions,
  connectBmc,
  type ExplorationReport,
  exploreBmc,
  redfishStandardDriver,
  selectDriver,
} from "@racksmith/core";
import {
  probeService,
  type RedfishClient,
  RedfishHttpError,
  type ServiceProbe,
} from "@racksmith/core/redfish";
import type { BmcCredentials, CredentialStore } from "../inventory/contracts.js";
import type { BmcConnector } from "./bmcConnector.js";
import { type AcceptedLogin, logIn } from "./bmcLogin.js";
import type { ResolvedSiteExplorerConfig } from "./configSchema.js";
import { type CredentialCandidate, credentialCandidates, isFactorySource } from "./credentialCandidates.js";
import {
  ExplorationError,
  type ExplorationFailure,
  messageOf,
  toExplorationFailure,
} from "./explorationFailure.js";
import { type AuthFailures, afterLogins, loginAttemptsLeft } from "./lockout.js";
import { rotatePassword } from "./rotation.js";

export interface EndpointExplorerDeps {
  connector: BmcConnector;
  credentials: CredentialStore;
  /** Registered driver definitions (the plugin host's), read at each exploration. */
  drivers(): readonly BmcDriverDefinition[];
  driverSettings?(definition: BmcDriverDefinition): Readonly<Record<string, unknown>> | undefined;
  config: Pick<ResolvedSiteExplorerConfig, "rotateCredentials" | "lockout"> & {
    bmc: Pick<ResolvedSiteExplorerConfig["bmc"], "explorationTimeoutMs">;
  };
  logger: Logger;
  clock?: () => Date;
}

export interface EndpointToExplore {
  address: string;
  /** BMC MAC: the key of its credentials; unknown for a one-off exploration of a stray address. */
  mac: string | undefined;
  /** Driver the expected machine pins. */
  pinnedDriver?: string | undefined;
  authFailures: AuthFailures;
  /** False for `explore now`: nothing on the BMC or in the credential store changes. */
  mayRotate: boolean;
  /**
   * Which logins to try: the store's for this MAC (the default), only the caller's own (an explore-now
   * request that brought them), or none (an address the inventory does not know: stored secrets never go
   * to an address they were not stored for).
   */
  logins?: EndpointLogins;
}

export type EndpointLogins =
  | { kind: "stored" }
  | { kind: "given"; credentials: BmcCredentials }
  | { kind: "none" };

export interface EndpointExploration {
  report: ExplorationReport | undefined;
  error: ExplorationFailure | undefined;
  vendor: string | undefined;
  driver: string | undefined;
  latencyMs: number;
  exploredAt: Date;
  /** The lockout counters after this exploration's logins. */
  authFailures: AuthFailures;
  /** The BMC's password was rotated to the site password during this exploration. */
  rotated: boolean;
}

/** What the site explorer needs from an endpoint explorer (tests substitute their own). */
export interface BmcExplorer {
  explore(endpoint: EndpointToExplore): Promise<EndpointExploration>;
  powerOn(endpoint: Omit<EndpointToExplore, "mayRotate">): Promise<AuthFailures>;
}

/**
 * How long a timed-out exploration may take to unwind after its requests were aborted (store writes, login
 * counts) before it is left behind: the run never waits longer for a BMC past its deadline.
 */
const UNWIND_GRACE_MS = 1_000;

/**
 * Explores one BMC: anonymous probe of the service root, driver selection (pinned or detected), login with
 * the right credentials (never past the lockout budget), first-contact rotation to the site password, then the
 * driver's exploration report. Every failure becomes a typed `ExplorationFailure`; nothing is thrown.
 *
 * The whole exploration (or power-on) has a deadline, `bmc.explorationTimeoutMs`: when it passes, every
 * request of the exploration is aborted (its clients share one AbortSignal) and it fails with `timeout`,
 * whatever it got so far; a rotation it interrupts is left as a crash would leave it.
 */
export class EndpointExplorer implements BmcExplorer {
  private readonly clock: () => Date;

  constructor(private readonly deps: EndpointExplorerDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  async explore(endpoint: EndpointToExplore): Promise<EndpointExploration> {
    const exploredAt = this.clock();
    const started = performance.now();
    const session = new ExplorationSession(this.deps, endpoint, exploredAt);
    let report: ExplorationReport | undefined;
    let error: ExplorationFailure | undefined;
    try {
      report = await session.withinDeadline(() => session.run());
    } catch (caught) {
      error = toExplorationFailure(caught);
    } finally {
      await session.close();
    }
    return {
      report,
      error,
      vendor: report?.vendor ?? session.probe?.vendor,
      driver: report?.driver.name ?? session.driverName,
      latencyMs: Math.round(performance.now() - started),
      exploredAt,
      authFailures: session.authFailuresAfter(this.clock()),
      rotated: session.rotated,
    };
  }

  /**
   * Powers a host on with its stored login (one attempt, no rotation). Returns the lockout counters after
   * it; throws the typed exploration error when it could not.
   */
  async powerOn(endpoint: Omit<EndpointToExplore, "mayRotate">): Promise<AuthFailures> {
    const session = new ExplorationSession(this.deps, { ...endpoint, mayRotate: false }, this.clock());
    try {
      await session.withinDeadline(async () => {
        const client = await session.logIn(1);
        session.step = "powering the host on";
        const { driver } = await connectBmc(client, await session.connectOptions(client));
        await driver.power("On");
      });
    } catch (error) {
      throw error instanceof ExplorationError
        ? error
        : new ExplorationError(toExplorationFailure(error).code, messageOf(error), { cause: error });
    } finally {
      await session.close();
    }
    return session.authFailuresAfter(this.clock());
  }
}

/**
 * The state of one exploration; every client it opens is closed by `close`, and aborted when the
 * exploration's deadline passes (`withinDeadline`).
 */
class ExplorationSession {
  probe: ServiceProbe | undefined;
  /** The BMC's description read with credentials, once per session (see `connectOptions`). */
  private described: Promise<ServiceProbe> | undefined;
  driverName: string | undefined;
  failedLogins = 0;
  loggedIn = false;
  rotated = false;
  /** What the exploration is doing, named when its deadline passes. */
  step: string | undefined;
  private readonly clients: RedfishClient[] = [];
  private readonly abort = new AbortController();
  /** Makes this session's clients: every one is aborted with the session and closed by `close`. */
  private readonly connector: BmcConnector;
  private timedOut: ExplorationError | undefined;
  private closed = false;

  constructor(
    private readonly deps: EndpointExplorerDeps,
    private readonly endpoint: EndpointToExplore,
    private readonly now: Date,
  ) {
    this.connector = (address, credentials) => {
      const client = deps.connector(address, credentials, { signal: this.abort.signal });
      this.clients.push(client);
      // Work left behind after the deadline gets a closed client: nothing of it reaches the BMC.
      if (this.closed) void client.close().catch(() => undefined);
      return client;
    };
  }

  /**
   * Runs `work` within the exploration's deadline. When it passes, the result is `timeout` whatever `work`
   * does next: every request of the session is aborted (so `work` unwinds at once, a rotation in progress as
   * after a crash), and what `work` still returns, even a partial report, is dropped.
   */
  async withinDeadline<T>(work: () => Promise<T>): Promise<T> {
    const timeoutMs = this.deps.config.bmc.explorationTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.timedOut = new ExplorationError(
          "timeout",
          `the whole exploration exceeded ${timeoutMs} ms (siteExplorer.bmc.explorationTimeoutMs)${this.step ? ` while ${this.step}` : ""}; its requests were aborted`,
        );
        // Settled before the abort, so nothing the abort lets `work` return can come first.
        reject(this.timedOut);
        this.abort.abort(this.timedOut);
      }, timeoutMs);
    });
    const running = work();
    try {
      const result = await Promise.race([running, expired]);
      if (this.timedOut) throw this.timedOut;
      return result;
    } catch (error) {
      if (!this.timedOut) throw error;
      // Its requests are aborted: let it unwind (store writes and refused logins land), but never wait long.
      const unwound = await Promise.race([
        running.then(
          () => true,
          () => true,
        ),
        sleep(UNWIND_GRACE_MS, false, { ref: false }),
      ]);
      if (!unwound) {
        this.deps.logger.warn(
          { bmc: this.endpoint.address, step: this.step },
          "an exploration past its deadline is still unwinding; leaving it behind",
        );
      }
      throw this.timedOut;
    } finally {
      clearTimeout(timer);
    }
  }

  async run(): Promise<ExplorationReport> {
    const { accepted, candidates, systemsPath } = await this.logInWith(Number.POSITIVE_INFINITY);
    const client = await this.settleCredentials(accepted, candidates, systemsPath);
    this.step = `reading the BMC's resources${this.driverName ? ` (${this.driverName} driver)` : ""}`;
    const report = await exploreBmc(client, await this.connectOptions(client));
    this.driverName = report.driver.name;
    return report;
  }

  /** Probes, then logs in without rotating (at most `maxAttempts` tries): the client of the accepted login. */
  async logIn(maxAttempts: number): Promise<RedfishClient> {
    const { accepted } = await this.logInWith(maxAttempts);
    if (accepted.kind === "password-change-required") {
      throw new ExplorationError(
        "password_change_required",
        `the BMC requires a password change for ${accepted.candidate.credentials.username}; the exploration loop rotates it`,
      );
    }
    return accepted.client;
  }

  private async logInWith(maxAttempts: number): Promise<{
    accepted: AcceptedLogin;
    candidates: CredentialCandidate[];
    systemsPath: string;
  }> {
    const { address } = this.endpoint;
    this.step = "reading the service root";
    this.probe = await this.anonymousProbe();
    const systemsPath = this.probe?.serviceRoot.Systems?.["@odata.id"] ?? "/redfish/v1/Systems";
    const vendorKeys = this.vendorKeys();

    const lockoutLeft = loginAttemptsLeft(this.endpoint.authFailures, this.now, this.deps.config.lockout);
    if (lockoutLeft === 0) throw this.lockoutError();
    const attemptsLeft = Math.min(maxAttempts, lockoutLeft);
    const candidates = await this.candidates(vendorKeys);
    if (candidates.length === 0) {
      throw new ExplorationError(
        "missing_credentials",
        `no credentials for this BMC: none stored for ${this.endpoint.mac ?? "its (unknown) MAC"}, no factory login in its expected machine, no factory default for ${vendorKeys.length ? vendorKeys.join(" / ") : "its (unknown) vendor"}`,
      );
    }
    this.step = "logging in";
    const login = await logIn(this.connector, address, candidates, { attemptsLeft, systemsPath });
    this.failedLogins += login.failed;
    if (!login.accepted) {
      if (login.untried > 0 && attemptsLeft === lockoutLeft) throw this.lockoutError();
      throw new ExplorationError(
        "unauthorized",
        `the BMC refused every login tried (${candidates.map((c) => c.source).join(", ")})`,
      );
    }
    this.loggedIn = true;
    return { accepted: login.accepted, candidates, systemsPath };
  }

  /** The logins this exploration may try (see `EndpointToExplore.logins`). */
  private async candidates(vendorKeys: string[]): Promise<CredentialCandidate[]> {
    const logins = this.endpoint.logins ?? { kind: "stored" };
    if (logins.kind === "given") return [{ source: "request", credentials: logins.credentials }];
    if (logins.kind === "none") {
      throw new ExplorationError(
        "missing_credentials",
        "the inventory knows no BMC at this address, so no stored credentials are sent to it; give credentials in the request",
      );
    }
    this.step = "reading the credential store";
    return credentialCandidates(this.deps.credentials, { mac: this.endpoint.mac, vendorKeys }).catch(
      (error: unknown) => {
        throw new ExplorationError(
          "missing_credentials",
          `the credential store cannot be read: ${messageOf(error)}`,
          {
            cause: error,
          },
        );
      },
    );
  }

  /**
   * Closes every client. After the deadline this does not wait: a session logout (which ignores the abort)
   * would wait on the slow BMC again, so the clients close in the background, the logout bounded by the
   * request timeout.
   */
  async close(): Promise<void> {
    this.closed = true;
    const closing = Promise.all(this.clients.map((client) => client.close().catch(() => undefined)));
    if (!this.timedOut) await closing;
  }

  /** The lockout counters once this session's logins are counted. */
  authFailuresAfter(now: Date): AuthFailures {
    return afterLogins(
      this.endpoint.authFailures,
      { failed: this.failedLogins, succeeded: this.loggedIn },
      now,
      this.deps.config.lockout,
    );
  }

  /**
   * Detection without credentials (the service root and `$metadata`: a BMC shows nothing else to an anonymous
   * reader); a BMC that hides its service root is explored without it.
   */
  private async anonymousProbe(): Promise<ServiceProbe | undefined> {
    const client = this.connector(this.endpoint.address);
    try {
      return await probeService(client, { members: false });
    } catch (error) {
      if (error instanceof RedfishHttpError && (error.httpStatus === 401 || error.httpStatus === 403)) {
        return undefined;
      }
      throw error;
    }
  }

  /** Names the vendor's factory default may be stored under: driver name, driver vendor, Redfish vendor. */
  private vendorKeys(): string[] {
    if (!this.probe) return this.endpoint.pinnedDriver ? [this.endpoint.pinnedDriver] : [];
    const { driver } = selectDriver(this.deps.drivers(), this.probe, {
      fallback: redfishStandardDriver,
      ...(this.endpoint.pinnedDriver ? { pinned: this.endpoint.pinnedDriver } : {}),
    });
    this.driverName = driver.name;
    const keys = driver.name === redfishStandardDriver.name ? [] : [driver.name, driver.vendor];
    if (this.probe.vendor) keys.push(this.probe.vendor);
    return [...new Set(keys.map((key) => key.toLowerCase()))];
  }

  /**
   * Returns the client to explore with, after doing what the accepted login requires: a pending intent is
   * settled, and a factory login (or a demanded password change) is rotated to the site password.
   */
  private async settleCredentials(
    accepted: AcceptedLogin,
    candidates: readonly CredentialCandidate[],
    systemsPath: string,
  ): Promise<RedfishClient> {
    const { mac, mayRotate } = this.endpoint;
    if (mac && mayRotate && candidates.some((c) => c.source === "rotation-intent")) {
      this.step = "settling a pending password rotation";
      await this.settleIntent(mac, accepted.candidate);
    }
    const pcr = accepted.kind === "password-change-required";
    if (!pcr && !isFactorySource(accepted.candidate.source)) return accepted.client;
    if (!mac || !mayRotate || !this.deps.config.rotateCredentials) {
      if (!pcr) return accepted.client;
      throw new ExplorationError(
        "password_change_required",
        `the BMC requires a password change for ${accepted.candidate.credentials.username}${mayRotate ? " and rotation is off (siteExplorer.rotateCredentials)" : "; the exploration loop rotates it"}`,
      );
    }
    this.step = "reading the site BMC root password";
    const site = await this.deps.credentials.get({ kind: "site-bmc-root" });
    if (!site && pcr) {
      throw new ExplorationError(
        "missing_credentials",
        "the BMC requires a password change and no site BMC root password is set (racksmith credentials set site-bmc-root)",
      );
    }
    if (!site || (!pcr && site.password === accepted.candidate.credentials.password)) return accepted.client;
    return this.rotate(mac, accepted, site.password, systemsPath);
  }

  /** The intended password works: it becomes the BMC's own. The old one works: the change never happened. */
  private async settleIntent(mac: string, used: CredentialCandidate): Promise<void> {
    const store = this.deps.credentials;
    if (used.source === "rotation-intent") {
      await store.set({ kind: "bmc", mac }, used.credentials);
      this.rotated = true;
    }
    await store.delete({ kind: "bmc-rotation", mac });
  }

  private async rotate(
    mac: string,
    accepted: AcceptedLogin,
    sitePassword: string,
    systemsPath: string,
  ): Promise<RedfishClient> {
    const counters = { failedLogins: 0 };
    try {
      const target = { store: this.deps.credentials, mac, address: this.endpoint.address, systemsPath };
      const rotated = await rotatePassword(
        { ...target, connector: this.connector },
        accepted.candidate.credentials,
        sitePassword,
        (next) => this.changePassword(accepted, next),
        counters,
        (step) => {
          this.step = step;
        },
      );
      this.rotated = true;
      this.deps.logger.info(
        { bmc: this.endpoint.address, mac, from: accepted.candidate.source },
        "BMC password rotated to the site password",
      );
      return rotated.client;
    } finally {
      this.failedLogins += counters.failedLogins;
    }
  }

  /** Through the driver for a normal login; straight at the named account when a change is demanded. */
  private async changePassword(accepted: AcceptedLogin, next: BmcCredentials): Promise<void> {
    if (accepted.kind === "password-change-required") {
      await accepted.client.patch(accepted.accountUri, { Password: next.password }, { ifMatch: "*" });
      return;
    }
    const { driver } = await connectBmc(accepted.client, await this.connectOptions(accepted.client));
    await driver.changePassword(next.username, next.password);
  }

  /** How to connect a driver with `client`: the BMC's description is read once per session, with credentials. */
  async connectOptions(client: RedfishClient): Promise<ConnectOptions> {
    // The anonymous probe read the service root and `$metadata` already: only the member collections are read.
    this.described ??= probeService(client, this.probe ? { described: this.probe } : {});
    return {
      probe: await this.described,
      drivers: this.deps.drivers(),
      fallback: redfishStandardDriver,
      logger: this.deps.logger,
      ...(this.endpoint.pinnedDriver ? { pinned: this.endpoint.pinnedDriver } : {}),
      ...(this.deps.driverSettings ? { settings: this.deps.driverSettings } : {}),
    };
  }

  private lockoutError(): ExplorationError {
    const failures = this.authFailuresAfter(this.now);
    const until = new Date((failures.lastAt ?? this.now).getTime() + this.deps.config.lockout.windowMs);
    return new ExplorationError(
      "avoid_lockout",
      `${failures.count} failed logins in a row: not trying this BMC again before ${until.toISOString()} (siteExplorer.lockout)`,
    );
  }
}
