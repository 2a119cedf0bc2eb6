import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { loadSync, type MethodDefinition, type ServiceDefinition } from "@grpc/proto-loader";
import { PROTO_LOADER_OPTIONS } from "@racksmith/server";
import type { MachineIdentity } from "./machineIdentity.js";
import { type AgentRpcName, type AgentRpcs, RPC_SERVICE } from "./messages.js";
import { ResumingTlsCredentials } from "./resumingCredentials.js";
import type { AgentStatsCounter } from "./stats.js";

/** The proto file of the agent API, under the server's `PROTO_ROOT` (`@racksmith/server`). */
export const AGENTS_PROTO = "racksmith/v1/agents.proto";

type AnyMethod = MethodDefinition<object, object>;

/** A failed call: the gRPC status code and its name (`UNAVAILABLE`, `NOT_FOUND`, …). */
export class AgentCallError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
    this.name = "AgentCallError";
  }
}

/** Thrown into an agent's loop when the agent was stopped (its machine powered off or rebooted). */
export class AgentStoppedError extends Error {
  constructor() {
    super("agent stopped");
    this.name = "AgentStoppedError";
  }
}

/**
 * The name the agent listener's certificate is checked for. TLS names no IP address (RFC 6066; Node warns): for
 * an IP listener it is `localhost`, which that certificate always carries.
 */
function tlsServerName(address: string): string {
  const host = address.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  return /^[\d.]+$|:/.test(host) ? "localhost" : host;
}

const CHANNEL_OPTIONS = {
  // Thousands of channels, nobody reading channelz.
  "grpc.enable_channelz": 0,
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.min_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1000,
};

/**
 * Agents call through one shared `Client` (one channel, one HTTP/2 connection) until their machine holds a
 * certificate, then over mTLS to the agent listener, one channel per machine (a TLS identity is per
 * connection). Reconnection backoff is kept short because the service may be restarted many times during a
 * run and agents must find it again within a poll or two.
 */
export class AgentApi {
  private readonly client: Client;
  private readonly methods: Map<AgentRpcName, AnyMethod>;
  /** Each machine's mTLS channel, for the certificate (by serial) it was made with. */
  private readonly machineClients = new Map<MachineIdentity, { serial: string; client: Client }>();

  constructor(
    address: string,
    private readonly stats: AgentStatsCounter,
    private readonly callTimeoutMs: number,
    private readonly token?: string,
  ) {
    const definition = loadSync([AGENTS_PROTO], PROTO_LOADER_OPTIONS);
    this.methods = new Map(
      (Object.keys(RPC_SERVICE) as AgentRpcName[]).map((name) => {
        const service = definition[`racksmith.v1.${RPC_SERVICE[name]}`] as ServiceDefinition | undefined;
        const method = service?.[name];
        if (!method) throw new Error(`${AGENTS_PROTO} has no ${RPC_SERVICE[name]}.${name}`);
        return [name, method];
      }),
    );
    this.client = new Client(address, credentials.createInsecure(), CHANNEL_OPTIONS);
  }

  /**
   * One call as a machine's agent: over its certificate's channel once it holds one (renewing the
   * certificate first when two thirds of its life are gone), else the shared one. DiscoverMachine always
   * goes the shared way: it is how an agent gets its certificate.
   */
  async callAs<Name extends AgentRpcName>(
    identity: MachineIdentity,
    name: Name,
    request: AgentRpcs[Name][0],
    signal: AbortSignal,
  ): Promise<AgentRpcs[Name][1]> {
    // A certificate that ran out while the machine was off is of no use: the next discovery brings a new one.
    if (identity.expired()) identity.forget();
    if (name === "DiscoverMachine" || !identity.certificate) return this.call(name, request, signal);
    try {
      if (identity.renewalDue()) await this.renew(identity, signal);
      return await this.call(name, request, signal, this.channelOf(identity));
    } catch (error) {
      if (!(error instanceof AgentCallError) || error.code !== status.UNAVAILABLE) throw error;
      // The agent listener moved (a restarted service on a free port): this call goes the shared way, and the
      // certificate naming the old address is dropped with its channel (which would keep reconnecting to a dead
      // port), so the machine's next discovery asks for one naming the listener as it is now.
      this.dropChannel(identity);
      identity.forget();
      return this.call(name, request, signal);
    }
  }

  private dropChannel(identity: MachineIdentity): void {
    this.machineClients.get(identity)?.client.close();
    this.machineClients.delete(identity);
  }

  private async renew(identity: MachineIdentity, signal: AbortSignal): Promise<void> {
    const machineId = identity.certificate?.machineId ?? "";
    const csrPem = await identity.request();
    const granted = await this.call("RenewAgentCertificate", { csrPem }, signal, this.channelOf(identity));
    if (identity.accept(granted, machineId)) this.stats.renewals += 1;
  }

  private channelOf(identity: MachineIdentity): Client {
    const held = identity.certificate;
    if (!held) return this.client;
    const known = this.machineClients.get(identity);
    if (known?.serial === held.serial) return known.client;
    known?.client.close();
    const client = new Client(
      held.address,
      new ResumingTlsCredentials(
        {
          caCertificatePem: held.caCertificatePem,
          privateKeyPem: held.privateKeyPem,
          certificatePem: held.certificatePem,
          serverName: tlsServerName(held.address),
        },
        (resumed) => this.stats.handshake(resumed),
      ),
      // A pool of its own: grpc-js compares a new channel with every one in the shared pool (thousands here).
      { ...CHANNEL_OPTIONS, "grpc.use_local_subchannel_pool": 1 },
    );
    this.machineClients.set(identity, { serial: held.serial, client });
    return client;
  }

  /** Each call's metadata: the bearer token, when there is one. */
  private metadata(): Metadata {
    const metadata = new Metadata();
    if (this.token) metadata.set("authorization", `Bearer ${this.token}`);
    return metadata;
  }

  /** One unary call; a stopped agent's call is cancelled and rejects with {@link AgentStoppedError}. */
  call<Name extends AgentRpcName>(
    name: Name,
    request: AgentRpcs[Name][0],
    signal: AbortSignal,
    client: Client = this.client,
  ): Promise<AgentRpcs[Name][1]> {
    if (signal.aborted) return Promise.reject(new AgentStoppedError());
    const method = this.methods.get(name) as AnyMethod;
    this.stats.call(name);
    return new Promise((resolve, reject) => {
      const onAbort = () => call.cancel();
      // On a machine's own channel its certificate says who calls; the token goes only the shared way.
      const call = client.makeUnaryRequest<object, object>(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        client === this.client ? this.metadata() : new Metadata(),
        { deadline: Date.now() + this.callTimeoutMs },
        (error: ServiceError | null, response?: object) => {
          signal.removeEventListener("abort", onAbort);
          if (signal.aborted) return reject(new AgentStoppedError());
          if (error) {
            const codeName = status[error.code] ?? String(error.code);
            this.stats.error(codeName);
            return reject(new AgentCallError(error.code, codeName, `${name}: ${error.details || codeName}`));
          }
          resolve(response as AgentRpcs[Name][1]);
        },
      );
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  close(): void {
    this.client.close();
    for (const { client } of this.machineClients.values()) client.close();
    this.machineClients.clear();
  }
}
