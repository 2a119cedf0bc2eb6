import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Conditions } from "./conditions.js";

export type FakeBmcFault = "none" | "slow" | "malformed" | "http500";

/** Delay before a request is handled (ms): one figure for every request, or per request. */
export type FakeBmcLatency = number | ((request: { method: string; path: string }) => number);

/** A request as the fake BMC saw it: `n` counts the requests it received, from 1. */
export interface FakeBmcRequest {
  method: string;
  path: string;
  n: number;
  /** It carried credentials (Basic or a session token). */
  authenticated: boolean;
}

/** Which requests the BMC holds unanswered until the test releases them (`release`). */
export type FakeBmcHold = (request: FakeBmcRequest) => boolean;

export interface FakeBmcOptions {
  username?: string;
  password: string;
  serial?: string;
  vendor?: string;
  power?: "On" | "Off";
  /** The account must change its password before anything but that change is allowed (403 PasswordChangeRequired). */
  passwordChangeRequired?: boolean;
  /** Answer a password change with 400 (a password policy refusing it). */
  refusePasswordChange?: boolean;
  fault?: FakeBmcFault;
  /**
   * Handle each request this long after it arrives (a slow BMC): the request takes effect then, even when
   * the client has given up on it meanwhile (a password change still happens), but its answer is lost.
   */
  latencyMs?: FakeBmcLatency;
  /**
   * Hold the requests it selects: each is received (counted, in flight) but handled only when the test calls
   * `release`, and never when it does not (a BMC stuck on them). A released request takes effect even when
   * the client has given up on it meanwhile (a password change still happens), but its answer is lost.
   */
  hold?: FakeBmcHold;
}

interface HeldRequest {
  request: IncomingMessage;
  body: string;
  response: ServerResponse;
  seen: FakeBmcRequest;
}

const ACCOUNT = "/redfish/v1/AccountService/Accounts/1";

/**
 * A small stateful Redfish BMC for the explorer's tests: one system, one account whose password can be
 * changed (PATCH), power on through ComputerSystem.Reset, Basic authentication counting refused logins, the
 * PasswordChangeRequired flow, faults (never answering, malformed JSON, HTTP 500) and latency.
 */
export class FakeRedfishBmc {
  password: string;
  power: "On" | "Off";
  passwordChangeRequired: boolean;
  /** Settable while running (a BMC that becomes fast again). */
  latencyMs: FakeBmcLatency;
  refusedLogins = 0;
  passwordChanges = 0;
  /** Requests received. */
  requests = 0;
  /** Requests whose client went away before the answer (aborted or timed out). */
  abandonedRequests = 0;
  inFlight = 0;
  /** Every request received, in order. */
  readonly received: FakeBmcRequest[] = [];
  /** Settable while running. */
  hold: FakeBmcHold | undefined;
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly held: HeldRequest[] = [];
  private readonly conditions = new Conditions();
  private constructor(
    private readonly server: Server,
    readonly address: string,
    private readonly options: FakeBmcOptions,
  ) {
    this.password = options.password;
    this.power = options.power ?? "On";
    this.passwordChangeRequired = options.passwordChangeRequired ?? false;
    this.latencyMs = options.latencyMs ?? 0;
    this.hold = options.hold;
  }

  static async start(options: FakeBmcOptions): Promise<FakeRedfishBmc> {
    let bmc: FakeRedfishBmc | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => bmc?.receive(request, Buffer.concat(chunks).toString(), response));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    bmc = new FakeRedfishBmc(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, options);
    return bmc;
  }

  /** An address nothing listens on. */
  static async closedAddress(): Promise<string> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return `http://127.0.0.1:${port}`;
  }

  /** The requests held now (received, not yet released), oldest first. */
  get heldRequests(): FakeBmcRequest[] {
    return this.held.map((held) => held.seen);
  }

  /** Handles every request held now, in the order received (a stuck BMC catching up). */
  release(): void {
    for (const held of this.held.splice(0)) this.handle(held.request, held.body, held.response);
    this.changed();
  }

  /**
   * Resolves once `condition` holds, checked now and after everything the BMC sees (a request received,
   * held, answered or abandoned): the test waits on the BMC's own events, never on a clock.
   */
  until(condition: () => boolean): Promise<void> {
    return this.conditions.until(condition);
  }

  async stop(): Promise<void> {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    this.held.splice(0);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private changed(): void {
    this.conditions.changed();
  }

  private receive(request: IncomingMessage, body: string, response: ServerResponse): void {
    this.requests++;
    this.inFlight++;
    response.on("close", () => {
      this.inFlight--;
      if (!response.writableFinished) this.abandonedRequests++;
      this.changed();
    });
    const path = (request.url ?? "/").split("?")[0] ?? "";
    const { authorization, "x-auth-token": token } = request.headers;
    const seen = {
      method: request.method ?? "GET",
      path,
      n: this.requests,
      authenticated: authorization !== undefined || token !== undefined,
    };
    this.received.push(seen);
    if (this.hold?.(seen)) {
      this.held.push({ request, body, response, seen });
      this.changed();
      return;
    }
    this.changed();
    const latency =
      typeof this.latencyMs === "function"
        ? this.latencyMs({ method: request.method ?? "GET", path })
        : this.latencyMs;
    if (latency <= 0) return void this.handle(request, body, response);
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      this.handle(request, body, response);
    }, latency);
    this.pending.add(timer);
  }

  private handle(request: IncomingMessage, body: string, response: ServerResponse): void {
    const { fault = "none" } = this.options;
    if (fault === "slow") return; // never answers: the client's timeout decides
    if (fault === "malformed") return void send(response, 200, '{"@odata.id": "/redfish/v1", "Name": "trunc');
    if (fault === "http500") return void send(response, 500, JSON.stringify(error("InternalError", [])));
    const path = (request.url ?? "/").split("?")[0]?.replace(/\/$/, "") ?? "";
    const method = request.method ?? "GET";
    if (method === "GET" && (path === "/redfish/v1" || path === "/redfish"))
      return void json(response, 200, this.root());
    const user = this.authenticate(request.headers.authorization);
    if (!user) {
      return void json(response, 401, error("NoValidSession", []));
    }
    const ownPasswordChange = method === "PATCH" && path === ACCOUNT;
    if (this.passwordChangeRequired && !ownPasswordChange) {
      return void json(response, 403, error("PasswordChangeRequired", [ACCOUNT]));
    }
    if (ownPasswordChange) return void this.changePassword(body, response);
    if (method === "POST" && path === "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset") {
      this.power = "On";
      return void send(response, 204, "");
    }
    const resource = method === "GET" ? this.resources()[path] : undefined;
    if (resource) return void json(response, 200, resource);
    return void json(response, 404, error("ResourceMissingAtURI", [path]));
  }

  private changePassword(body: string, response: ServerResponse): void {
    if (this.options.refusePasswordChange) {
      return void json(response, 400, error("PropertyValueFormatError", ["Password"]));
    }
    const { Password } = JSON.parse(body) as { Password?: string };
    if (typeof Password !== "string") return void json(response, 400, error("PropertyMissing", ["Password"]));
    this.password = Password;
    this.passwordChangeRequired = false;
    this.passwordChanges++;
    return void send(response, 204, "");
  }

  private authenticate(header: string | undefined): string | undefined {
    const match = /^Basic\s+(\S+)$/i.exec(header ?? "");
    if (!match?.[1]) return undefined;
    const [user, ...rest] = Buffer.from(match[1], "base64").toString().split(":");
    if (user === (this.options.username ?? "root") && rest.join(":") === this.password) return user;
    this.refusedLogins++;
    return undefined;
  }

  private root() {
    return {
      "@odata.id": "/redfish/v1",
      "@odata.type": "#ServiceRoot.v1_11_0.ServiceRoot",
      Id: "RootService",
      RedfishVersion: "1.15.0",
      Vendor: this.options.vendor ?? "Contoso",
      Systems: { "@odata.id": "/redfish/v1/Systems" },
      Managers: { "@odata.id": "/redfish/v1/Managers" },
      Chassis: { "@odata.id": "/redfish/v1/Chassis" },
      AccountService: { "@odata.id": "/redfish/v1/AccountService" },
    };
  }

  private resources(): Record<string, object> {
    const collection = (id: string, members: string[]) => ({
      "@odata.id": id,
      Members: members.map((member) => ({ "@odata.id": member })),
      "Members@odata.count": members.length,
    });
    return {
      "/redfish/v1/Systems": collection("/redfish/v1/Systems", ["/redfish/v1/Systems/1"]),
      "/redfish/v1/Systems/1": {
        "@odata.id": "/redfish/v1/Systems/1",
        "@odata.type": "#ComputerSystem.v1_20_0.ComputerSystem",
        Id: "1",
        Manufacturer: "Contoso",
        Model: "Fake 1U",
        SerialNumber: this.options.serial ?? "FAKE-SERIAL",
        PowerState: this.power,
        Actions: {
          "#ComputerSystem.Reset": { target: "/redfish/v1/Systems/1/Actions/ComputerSystem.Reset" },
        },
      },
      "/redfish/v1/Managers": collection("/redfish/v1/Managers", []),
      "/redfish/v1/Chassis": collection("/redfish/v1/Chassis", []),
      "/redfish/v1/AccountService": {
        "@odata.id": "/redfish/v1/AccountService",
        Accounts: { "@odata.id": "/redfish/v1/AccountService/Accounts" },
      },
      "/redfish/v1/AccountService/Accounts": collection("/redfish/v1/AccountService/Accounts", [ACCOUNT]),
      [ACCOUNT]: {
        "@odata.id": ACCOUNT,
        "@odata.type": "#ManagerAccount.v1_9_0.ManagerAccount",
        Id: "1",
        UserName: this.options.username ?? "root",
        RoleId: "Administrator",
        Enabled: true,
      },
    };
  }
}

function error(messageId: string, args: string[]) {
  return {
    error: {
      code: `Base.1.8.${messageId}`,
      message: messageId,
      "@Message.ExtendedInfo": [
        { MessageId: `Base.1.8.${messageId}`, Message: messageId, MessageArgs: args },
      ],
    },
  };
}

function json(response: ServerResponse, status: number, body: object): void {
  send(response, status, JSON.stringify(body));
}

function send(response: ServerResponse, status: number, text: string): void {
  if (response.destroyed) return; // the client gave up on it
  response.writeHead(status, text ? { "Content-Type": "application/json" } : {});
  response.end(text);
}
