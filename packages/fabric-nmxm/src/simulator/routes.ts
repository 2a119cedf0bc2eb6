import type { WireCreatePartition, WireUpdatePartition } from "../client/index.js";
import type { PartitionChange, SimulatorState } from "./state.js";

/** An HTTP error answer with NMX-M-like `{"error": ...}` body. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiAnswer {
  status: number;
  payload: unknown;
}

const PREFIX = "/nmx/v1/";

/** Routes one `nmx/v1` request against the state. */
export function handleApiRequest(
  state: SimulatorState,
  method: string,
  path: string,
  body: unknown,
): ApiAnswer {
  if (!path.startsWith(PREFIX)) throw new HttpProblem(404, `no such path ${path}`);
  const [collection, id, extra] = path.slice(PREFIX.length).split("/").map(decodeURIComponent);
  if (extra !== undefined) throw new HttpProblem(404, `no such path ${path}`);
  const ok = (payload: unknown, status = 200): ApiAnswer => ({ status, payload });
  // A partition change is queued as an operation; the answer (202) names it.
  const enqueued = (change: PartitionChange, requestBody: unknown): ApiAnswer =>
    ok({ operationId: state.enqueue(change, { method, uri: path, body: requestBody }).id }, 202);

  if (method === "GET" && id === "count") return ok({ total: countOf(state, collection ?? "") });

  switch (`${method} ${collection}${id === undefined ? "" : "/:id"}`) {
    case "GET gpus":
      return ok(state.gpus.map((gpu) => state.wireGpu(gpu)));
    case "GET gpus/:id": {
      const gpu = state.gpu(id ?? "");
      if (!gpu) throw new HttpProblem(404, `GPU ${id} not found`);
      return ok([state.wireGpu(gpu)]);
    }
    case "GET compute-nodes":
      return ok(state.computeNodes());
    case "GET compute-nodes/:id": {
      const node = state.computeNodes().find((candidate) => candidate.ID === id);
      if (!node) throw new HttpProblem(404, `compute node ${id} not found`);
      return ok([node]);
    }
    case "GET switch-nodes":
    case "GET ports":
    case "GET chassis":
      // Not simulated: Racksmith's partitioning never reads them.
      return ok([]);
    case "GET partitions":
      return ok([...state.partitions.values()].map((partition) => state.wirePartition(partition)));
    case "GET partitions/:id":
      return ok(state.wirePartition(existingPartition(state, id)));
    case "POST partitions": {
      const request = createBody(body);
      return enqueued({ kind: "create", name: request.Name, gpus: request.Members }, request);
    }
    case "PUT partitions/:id": {
      const partition = existingPartition(state, id);
      const request = updateBody(body);
      return enqueued({ kind: "update", partitionId: partition.id, gpus: request.Members }, request);
    }
    case "DELETE partitions/:id":
      return enqueued({ kind: "delete", partitionId: existingPartition(state, id).id }, null);
    case "GET operations":
      return ok(state.allOperations().map((operation) => state.wireOperation(operation)));
    case "GET operations/:id": {
      const operation = state.operation(id ?? "");
      if (!operation) throw new HttpProblem(404, `operation ${id} not found`);
      return ok(state.wireOperation(operation));
    }
    case "DELETE operations/:id": {
      const operation = state.operation(id ?? "");
      if (!operation) throw new HttpProblem(404, `operation ${id} not found`);
      if (!state.cancel(operation)) throw new HttpProblem(409, `operation ${id} is ${operation.status}`);
      return ok({ operationId: operation.id }, 202);
    }
    default:
      throw new HttpProblem(405, `${method} ${path} is not supported`);
  }
}

function countOf(state: SimulatorState, collection: string): number {
  if (collection === "gpus") return state.gpus.length;
  if (collection === "compute-nodes") return state.computeNodes().length;
  if (collection === "chassis" || collection === "switch-nodes" || collection === "ports") return 0;
  throw new HttpProblem(404, `no such collection ${collection}`);
}

function existingPartition(state: SimulatorState, id: string | undefined) {
  const partition = state.partitions.get(id ?? "");
  if (!partition) throw new HttpProblem(404, `partition ${id} not found`);
  return partition;
}

function memberList(body: Record<string, unknown>): string[] {
  const members = body.Members;
  if (!Array.isArray(members) || members.some((member) => typeof member !== "string"))
    throw new HttpProblem(400, "Members must be a list of GPU ids");
  return members as string[];
}

function createBody(body: unknown): WireCreatePartition {
  if (body === null || typeof body !== "object") throw new HttpProblem(400, "body must be an object");
  const record = body as Record<string, unknown>;
  if (typeof record.Name !== "string" || !record.Name) throw new HttpProblem(400, "Name is required");
  return { Name: record.Name, Members: memberList(record) };
}

function updateBody(body: unknown): WireUpdatePartition {
  if (body === null || typeof body !== "object") throw new HttpProblem(400, "body must be an object");
  return { Members: memberList(body as Record<string, unknown>) };
}
