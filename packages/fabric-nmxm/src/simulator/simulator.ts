import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { buildGpus, type GeneratedLayout, type SimulatedDomainSpec, type SimulatedGpu } from "./layout.js";
import { HttpProblem, handleApiRequest } from "./routes.js";
import { type SimulatedPartition, SimulatorState } from "./state.js";

export interface NmxmSimulatorFaults {
  /** Drop every connection, as if NMX-M were down. */
  down?: boolean;
  /** Let this many creates succeed, then fail every create operation. */
  failAfterCreates?: number;
  /** Hold every HTTP response this long (drives client timeouts). */
  responseDelayMs?: number;
}

export interface NmxmSimulatorOptions {
  /** Explicit domains, or a generated layout. Default: 2 domains × 72 GPUs (two NVL72 racks). */
  domains?: readonly SimulatedDomainSpec[] | GeneratedLayout;
  /** How long an operation takes: pending for the first half, in-progress for the second. Default 50 ms. */
  operationDelayMs?: number;
  /** Start with every GPU in the default partition (32766), like a fresh NMX-M. Default true. */
  defaultPartition?: boolean;
  /** Basic-auth credentials the simulator accepts. */
  username?: string;
  password?: string;
  faults?: NmxmSimulatorFaults;
  host?: string;
  port?: number;
}

export interface SimulatorRequestRecord {
  method: string;
  path: string;
  /** HTTP status, or 0 for a dropped connection. */
  status: number;
}

/** A partition as tests inspect it. */
export interface SimulatorPartitionView {
  id: string;
  number: number;
  name: string;
  domain: string | null;
  gpus: string[];
  isDefault: boolean;
}

/**
 * A stateful NMX-M over HTTP for tests and local runs: the `nmx/v1` endpoints Racksmith uses, asynchronous
 * operations, the default partition, basic auth and fault injection.
 */
export class NmxmSimulator {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** Every request served (or dropped), in order. */
  readonly requests: SimulatorRequestRecord[] = [];
  private down: boolean;
  private responseDelayMs: number;
  private failures: { status: number; remaining: number } | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly state: SimulatorState,
    options: NmxmSimulatorOptions,
  ) {
    const address = server.address() as AddressInfo;
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
    this.url = `http://${host}:${address.port}`;
    this.username = options.username ?? "admin";
    this.password = options.password ?? "nmxm-simulator-secret";
    this.down = options.faults?.down ?? false;
    this.responseDelayMs = options.faults?.responseDelayMs ?? 0;
    if (options.faults?.failAfterCreates !== undefined)
      this.failAfterCreates(options.faults.failAfterCreates);
  }

  static async start(options: NmxmSimulatorOptions = {}): Promise<NmxmSimulator> {
    const gpus = buildGpus(options.domains ?? { domainCount: 2, gpusPerDomain: 72 });
    const state = new SimulatorState(gpus, {
      defaultPartition: options.defaultPartition ?? true,
      operationDelayMs: options.operationDelayMs ?? 50,
    });
    const server = createServer();
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
    await once(server, "listening");
    const simulator = new NmxmSimulator(server, state, options);
    server.on("connection", (socket) => simulator.onConnection(socket));
    server.on("request", (request, response) => void simulator.onRequest(request, response));
    return simulator;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- faults ---------------------------------------------------------------------------------------

  setDown(down: boolean): void {
    this.down = down;
    // Kept-alive connections would otherwise still reach a "down" NMX-M.
    if (down) for (const socket of this.sockets) socket.destroy();
  }

  /** From now on, `count` more creates succeed and every later create operation fails. */
  failAfterCreates(count: number | undefined): void {
    this.state.createBudget.remaining = count;
  }

  /** Operations enqueued from now on take this long. */
  slowOperations(operationDelayMs: number): void {
    this.state.operationDelayMs = operationDelayMs;
  }

  /** Holds every response this long. */
  setResponseDelay(ms: number): void {
    this.responseDelayMs = ms;
  }

  /** Answers the next `count` requests with this HTTP status (500, 503…). */
  failRequests(status: number, count = 1): void {
    this.failures = { status, remaining: count };
  }

  // ---- state inspection and manual changes ----------------------------------------------------------

  gpus(): SimulatedGpu[] {
    return [...this.state.gpus];
  }

  partitions(): SimulatorPartitionView[] {
    this.state.advance();
    return [...this.state.partitions.values()].map((partition) => this.view(partition));
  }

  /** Number of the partition holding this GPU, or null. */
  partitionOf(gpuId: string): number | null {
    this.state.advance();
    return this.state.partitionOf(gpuId)?.number ?? null;
  }

  /** The default partitions: one per domain, unless deleted. */
  defaultPartitions(): SimulatorPartitionView[] {
    return this.partitions().filter((partition) => partition.isDefault);
  }

  operations(): { id: string; status: string; error?: string }[] {
    this.state.advance();
    return this.state.allOperations().map((operation) => ({
      id: operation.id,
      status: operation.status,
      ...(operation.error ? { error: operation.error } : {}),
    }));
  }

  /** As if an operator moved a GPU in NMX-M directly: out of its partition, into this one (id, or number in its domain). */
  placeGpuByHand(gpuId: string, partition: string | number): void {
    this.state.advance();
    const gpu = this.state.gpu(gpuId);
    if (!gpu) throw new Error(`NmxmSimulator: no GPU ${gpuId}`);
    // Numbers are per domain: look the number up in the GPU's domain.
    const target = [...this.state.partitions.values()].find(
      (p) => p.id === partition || (p.number === partition && p.domain === gpu.domain),
    );
    if (!target) throw new Error(`NmxmSimulator: no partition ${partition}`);
    this.state.detach(gpuId);
    target.gpus.push(gpuId);
  }

  /** As if an operator created a partition in NMX-M directly (NICo's "unknown partition", e.g. 12345). */
  createPartitionByHand(request: {
    name: string;
    gpus: readonly string[];
    number?: number;
  }): SimulatorPartitionView {
    this.state.advance();
    for (const gpu of request.gpus) if (!this.state.gpu(gpu)) throw new Error(`NmxmSimulator: no GPU ${gpu}`);
    return this.view(this.state.addPartition(request.name, request.gpus, request.number));
  }

  private view(partition: SimulatedPartition): SimulatorPartitionView {
    return {
      id: partition.id,
      number: partition.number,
      name: partition.name,
      domain: partition.domain,
      gpus: [...partition.gpus],
      isDefault: partition.number === 32766,
    };
  }

  // ---- HTTP -----------------------------------------------------------------------------------------

  private onConnection(socket: Socket): void {
    if (this.down) {
      this.requests.push({ method: "", path: "", status: 0 });
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? "GET";
    const path = new URL(request.url ?? "/", "http://simulator").pathname;
    if (this.down) {
      this.requests.push({ method, path, status: 0 });
      request.socket.destroy();
      return;
    }
    let status = 500;
    let payload: unknown;
    try {
      const body = await readBody(request);
      if (this.responseDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.responseDelayMs));
      if (!this.authorized(request.headers.authorization))
        throw new HttpProblem(401, "authentication required");
      if (this.failures && this.failures.remaining > 0) {
        this.failures.remaining--;
        throw new HttpProblem(this.failures.status, "simulated failure (fault)");
      }
      this.state.advance();
      ({ status, payload } = handleApiRequest(this.state, method, path, body));
    } catch (error) {
      status = error instanceof HttpProblem ? error.status : 500;
      payload = { error: error instanceof Error ? error.message : String(error) };
    }
    this.requests.push({ method, path, status });
    if (response.destroyed) return;
    response.writeHead(status, {
      "Content-Type": "application/json",
      ...(status === 401 ? { "WWW-Authenticate": 'Basic realm="NMX-M"' } : {}),
    });
    response.end(payload === undefined ? "" : serialize(payload));
  }

  private authorized(header: string | undefined): boolean {
    const expected = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString("base64")}`;
    return header === expected;
  }
}

/** JSON, with DeviceUID written as the bare u64 number NMX-M sends (it is kept as a string internally). */
function serialize(payload: unknown): string {
  return JSON.stringify(payload).replace(/"DeviceUID":"(\d+)"/g, '"DeviceUID":$1');
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new HttpProblem(413, "request body too large");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpProblem(400, "request body is not JSON");
  }
}
