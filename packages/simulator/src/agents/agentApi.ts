import { status } from "@grpc/grpc-js";
import { loadSync, type MethodDefinition, type ServiceDefinition } from "@grpc/proto-loader";
import { PROTO_LOADER_OPTIONS } from "@racksmith/server";
import type { MachineIdentity } from "./machineIdentity.js";
import { type AgentRpcName, type AgentRpcs, RPC_SERVICE } from "./messages.js";
import type { AgentStatsCounter } from "./stats.js";
import { UnaryCallError, UnaryChannel } from "./unaryChannel.js";

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

/**
 * Agents call through one shared channel (one HTTP/2 connection) until their machine holds a certificate, then
 * over mTLS to the agent listener, one channel per machine (a TLS identity is per connection). A channel
 * connects at a call when it holds no connection, so agents find a restarted service at their next call.
 */
export class AgentApi {
  private readonly shared: UnaryChannel;
  private readonly methods: Map<AgentRpcName, AnyMethod>;
  /** Each machine's mTLS channel, for the certificate (by serial) it was made with. */
  private readonly machineChannels = new Map<MachineIdentity, { serial: string; channel: UnaryChannel }>();

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
    this.shared = new UnaryChannel(address);
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
    this.machineChannels.get(identity)?.channel.close();
    this.machineChannels.delete(identity);
  }

  private async renew(identity: MachineIdentity, signal: AbortSignal): Promise<void> {
    const machineId = identity.certificate?.machineId ?? "";
    const csrPem = await identity.request();
    const granted = await this.call("RenewAgentCertificate", { csrPem }, signal, this.channelOf(identity));
    if (identity.accept(granted, machineId)) this.stats.renewals += 1;
  }

  private channelOf(identity: MachineIdentity): UnaryChannel {
    const held = identity.certificate;
    if (!held) return this.shared;
    const known = this.machineChannels.get(identity);
    if (known?.serial === held.serial) return known.channel;
    known?.channel.close();
    const channel = new UnaryChannel(
      held.address,
      {
        caCertificatePem: held.caCertificatePem,
        privateKeyPem: held.privateKeyPem,
        certificatePem: held.certificatePem,
        serverName: tlsServerName(held.address),
      },
      (resumed) => this.stats.handshake(resumed),
    );
    this.machineChannels.set(identity, { serial: held.serial, channel });
    return channel;
  }

  /** One unary call; a stopped agent's call is cancelled and rejects with {@link AgentStoppedError}. */
  async call<Name extends AgentRpcName>(
    name: Name,
    request: AgentRpcs[Name][0],
    signal: AbortSignal,
    channel: UnaryChannel = this.shared,
  ): Promise<AgentRpcs[Name][1]> {
    if (signal.aborted) throw new AgentStoppedError();
    const method = this.methods.get(name) as AnyMethod;
    this.stats.call(name);
    // On a machine's own channel its certificate says who calls; the token goes only the shared way.
    const metadata: Record<string, string> =
      channel === this.shared && this.token ? { authorization: `Bearer ${this.token}` } : {};
    try {
      const answer = await channel.call({
        path: method.path,
        message: method.requestSerialize(request),
        metadata,
        deadline: Date.now() + this.callTimeoutMs,
        signal,
      });
      return method.responseDeserialize(answer) as AgentRpcs[Name][1];
    } catch (error) {
      if (signal.aborted) throw new AgentStoppedError();
      if (!(error instanceof UnaryCallError)) throw error;
      const codeName = status[error.code] ?? String(error.code);
      this.stats.error(codeName);
      throw new AgentCallError(error.code, codeName, `${name}: ${error.details || codeName}`);
    }
  }

  close(): void {
    this.shared.close();
    for (const { channel } of this.machineChannels.values()) channel.close();
    this.machineChannels.clear();
  }
}
