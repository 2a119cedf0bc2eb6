import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import { loadSync, type MethodDefinition, type ServiceDefinition } from "@grpc/proto-loader";
import { PROTO_LOADER_OPTIONS } from "@racksmith/server";
import { type AgentRpcName, type AgentRpcs, RPC_SERVICE } from "./messages.js";
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
 * Every agent of a simulation calls through one `Client` (one channel, one HTTP/2 connection): thousands of
 * agents must not open thousands of connections. Reconnection backoff is kept short because the service may be
 * restarted many times during a run and agents must find it again within a poll or two.
 */
export class AgentApi {
  private readonly client: Client;
  private readonly methods: Map<AgentRpcName, AnyMethod>;

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
    this.client = new Client(address, credentials.createInsecure(), {
      "grpc.initial_reconnect_backoff_ms": 100,
      "grpc.min_reconnect_backoff_ms": 100,
      "grpc.max_reconnect_backoff_ms": 1000,
    });
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
  ): Promise<AgentRpcs[Name][1]> {
    if (signal.aborted) return Promise.reject(new AgentStoppedError());
    const method = this.methods.get(name) as AnyMethod;
    this.stats.call(name);
    return new Promise((resolve, reject) => {
      const onAbort = () => call.cancel();
      const call = this.client.makeUnaryRequest<object, object>(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        this.metadata(),
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
  }
}
