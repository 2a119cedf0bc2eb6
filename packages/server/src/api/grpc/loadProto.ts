import { fileURLToPath } from "node:url";
import { type GrpcObject, loadPackageDefinition } from "@grpc/grpc-js";
import { loadSync, type PackageDefinition } from "@grpc/proto-loader";
import type { ProtoGrpcType } from "./generated/racksmith.js";

/** The .proto files ship with the package (`proto/`), next to `src/` and `dist/`. */
export const PROTO_ROOT = fileURLToPath(new URL("../../../proto", import.meta.url));

/** Loader options matching the generated types (proto-loader-gen-types is run with the same ones). */
export const PROTO_LOADER_OPTIONS = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

export interface RacksmithProto {
  definition: PackageDefinition;
  grpc: ProtoGrpcType;
}

/** Loads the core proto and any feature protos (paths under `proto/`) as one package definition. */
export function loadRacksmithProto(extraFiles: readonly string[] = []): RacksmithProto {
  const definition = loadSync(["racksmith/v1/racksmith.proto", ...extraFiles], PROTO_LOADER_OPTIONS);
  return { definition, grpc: loadPackageDefinition(definition) as unknown as ProtoGrpcType & GrpcObject };
}
