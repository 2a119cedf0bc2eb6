import type { MessageLookup, MethodShape } from "./grpcCases.js";
import { buildGrpcCase, GRPC_CATEGORIES, type GrpcCase } from "./grpcCases.js";
import { truncate } from "./mutations.js";
import type { Operation } from "./openapi.js";
import { caseRng } from "./prng.js";
import { buildRestCase, type RestCase, restCategories } from "./restCases.js";
import type { Schema, Vocabulary } from "./schema.js";

/** Request `index` of a run: which protocol, which route or method, and the case itself. */
export type ScheduledCase =
  | { protocol: "rest"; target: string; description: string; rest: RestCase }
  | { protocol: "grpc"; target: string; description: string; grpc: GrpcCase };

export interface ScheduleInput {
  seed: number;
  operations: readonly Operation[];
  components: Readonly<Record<string, Schema>>;
  methods: readonly MethodShape[];
  lookup: MessageLookup;
  vocabulary: Vocabulary;
}

/** Of every 10 requests, 3 are gRPC calls and 7 REST requests. */
export const GRPC_PER_TEN = 3;

/**
 * The case of request `index`: interleaved (i % 10 < 3 is gRPC), each protocol numbered on its own; routes and
 * methods in turn, and for each its categories in turn, so every pair is reached early. Deterministic.
 */
export function scheduleCase(index: number, input: ScheduleInput): ScheduledCase | undefined {
  const block = Math.floor(index / 10);
  const slot = index % 10;
  if (slot < GRPC_PER_TEN && input.methods.length > 0) {
    const n = block * GRPC_PER_TEN + slot;
    const method = input.methods[n % input.methods.length];
    if (!method) return undefined;
    const category =
      GRPC_CATEGORIES[Math.floor(n / input.methods.length) % GRPC_CATEGORIES.length] ?? "valid";
    const grpc = buildGrpcCase(method, category, {
      rng: caseRng(input.seed + 1, n),
      lookup: input.lookup,
      vocabulary: input.vocabulary,
    });
    return { protocol: "grpc", target: method.name, description: grpc.description, grpc };
  }
  const n = block * (10 - GRPC_PER_TEN) + slot - (input.methods.length > 0 ? GRPC_PER_TEN : 0);
  const operation = input.operations[n % input.operations.length];
  if (!operation) return undefined;
  const categories = restCategories(operation);
  const category = categories[Math.floor(n / input.operations.length) % categories.length] ?? "valid";
  const rest = buildRestCase(operation, category, {
    rng: caseRng(input.seed, n),
    components: input.components,
    vocabulary: input.vocabulary,
  });
  return {
    protocol: "rest",
    target: rest.route,
    description: `${rest.method} ${truncate(rest.path)} ${rest.description}`,
    rest,
  };
}
