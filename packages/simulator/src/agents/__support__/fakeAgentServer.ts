import {
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type sendUnaryData,
  status,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { loadSync, type ServiceDefinition } from "@grpc/proto-loader";
import { PROTO_LOADER_OPTIONS } from "@racksmith/server";
import { AGENTS_PROTO } from "../agentApi.js";
import {
  type AgentControlResponse,
  type AgentRpcName,
  type AgentRpcs,
  type ManagedHostNetworkConfig,
  RPC_SERVICE,
  timestamp,
} from "../messages.js";

export interface RecordedCall<Name extends AgentRpcName = AgentRpcName> {
  readonly rpc: Name;
  readonly request: AgentRpcs[Name][0];
  /** The machine the call is about (its id, or `serial:<serial>` for DiscoverMachine). */
  readonly machine: string;
}

/**
 * The agent API with fakes, for the simulated agents' tests: machines are known by serial (`known`), DPU
 * configurations and host actions are set by the test, and every call is recorded.
 */
export class FakeAgentServer {
  readonly calls: RecordedCall[] = [];
  /** serial → [machine id, kind]; anything else is NOT_FOUND. */
  readonly known = new Map<string, { machineId: string; kind: "host" | "dpu" }>();
  readonly configs = new Map<string, ManagedHostNetworkConfig>();
  /** Per host machine id, the actions AgentControl hands out, one per poll, then noop. */
  readonly actions = new Map<string, AgentControlResponse[]>();
  private server: Server | undefined;
  port = 0;

  private constructor() {}

  static async start(port = 0): Promise<FakeAgentServer> {
    const fake = new FakeAgentServer();
    await fake.listen(port);
    return fake;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Calls of one RPC (for one machine). */
  of<Name extends AgentRpcName>(rpc: Name, machine?: string): RecordedCall<Name>[] {
    return this.calls.filter(
      (call): call is RecordedCall<Name> =>
        call.rpc === rpc && (machine === undefined || call.machine === machine),
    );
  }

  forMachine(machine: string): RecordedCall[] {
    return this.calls.filter((call) => call.machine === machine);
  }

  /** Listens on `port` (0: a free one); again after {@link stop}, on the same port by default. */
  async listen(port = this.port): Promise<void> {
    const definition = loadSync([AGENTS_PROTO], PROTO_LOADER_OPTIONS);
    const server = new Server();
    for (const service of ["DpuAgent", "HostAgent"] as const) {
      const handlers: UntypedServiceImplementation = {};
      for (const rpc of Object.keys(RPC_SERVICE) as AgentRpcName[]) {
        if (RPC_SERVICE[rpc] !== service) continue;
        handlers[rpc] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
          this.answer(rpc, call.request as never, callback);
      }
      server.addService(definition[`racksmith.v1.${service}`] as ServiceDefinition, handlers);
    }
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    this.server = server;
  }

  /** Drops every connection at once, like a SIGKILLed service. */
  stop(): void {
    this.server?.forceShutdown();
    this.server = undefined;
  }

  private answer<Name extends AgentRpcName>(
    rpc: Name,
    request: AgentRpcs[Name][0],
    callback: sendUnaryData<unknown>,
  ): void {
    const fields = request as { machineId?: string; dpuId?: string; inventory?: { serial: string } };
    const machine = fields.machineId ?? fields.dpuId ?? `serial:${fields.inventory?.serial ?? ""}`;
    this.calls.push({ rpc, request, machine } as RecordedCall);
    const [error, response] = this.reply(rpc, machine, fields.inventory?.serial ?? "");
    if (error) callback(error);
    else callback(null, response);
  }

  /** The answer to one call: an error, or null and the response. */
  private reply(
    rpc: AgentRpcName,
    machine: string,
    serial: string,
  ): [{ code: number; details: string }, undefined] | [null, unknown] {
    const notFound: [{ code: number; details: string }, undefined] = [
      { code: status.NOT_FOUND, details: `${machine} is not known` },
      undefined,
    ];
    switch (rpc) {
      case "DiscoverMachine": {
        const found = this.known.get(serial);
        return found ? [null, found] : notFound;
      }
      case "GetManagedHostNetworkConfig": {
        const config = this.configs.get(machine);
        return config ? [null, config] : notFound;
      }
      case "RecordDpuNetworkStatus":
        return [null, {}];
      case "AgentControl":
        return [null, this.actions.get(machine)?.shift() ?? { action: "noop", validationContext: "" }];
      default:
        return [null, { recordedAt: timestamp(Date.now()) }];
    }
  }
}
