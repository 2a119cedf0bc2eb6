import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client, credentials } from "@grpc/grpc-js";
import {
  loadFileDescriptorSetFromBuffer,
  loadSync,
  type MessageTypeDefinition,
  type MethodDefinition,
  type PackageDefinition,
} from "@grpc/proto-loader";
import type { FieldShape, MessageLookup, MessageShape, MethodShape } from "./grpcCases.js";
import { concat, lenField } from "./wire.js";

/*
 * What the gRPC server says about itself through grpc.reflection.v1: its services, the file descriptors that
 * define them, and from those every unary method with its request message's fields.
 */

const require = createRequire(import.meta.url);
const REFLECTION_PROTO = join(
  dirname(require.resolve("@grpc/reflection/package.json")),
  "build/proto/grpc/reflection/v1/reflection.proto",
);
const REFLECTION_METHOD = "grpc.reflection.v1.ServerReflection/ServerReflectionInfo";

interface ReflectionResponse {
  listServicesResponse?: { service?: Array<{ name?: string }> };
  fileDescriptorResponse?: { fileDescriptorProto?: Buffer[] };
  errorResponse?: { errorCode?: number; errorMessage?: string };
}

export interface ReflectedApi {
  services: string[];
  /** Unary methods (streaming ones are not fuzzed). */
  methods: MethodShape[];
  /** Streaming methods found and left out, by name. */
  skipped: string[];
  lookup: MessageLookup;
}

/** Asks the server at `address` (a loopback `host:port`) for its API, and reads it. */
export async function reflect(address: string, timeoutMs = 10_000): Promise<ReflectedApi> {
  const definition = loadSync(REFLECTION_PROTO, { defaults: false, oneofs: true });
  const service = definition["grpc.reflection.v1.ServerReflection"];
  const method = (service as Record<string, MethodDefinition<object, ReflectionResponse>> | undefined)
    ?.ServerReflectionInfo;
  if (!method) throw new Error("the reflection proto has no ServerReflectionInfo");
  const client = new Client(address, credentials.createInsecure());
  try {
    const ask = askVia(client, method, timeoutMs);
    const listed = await ask({ listServices: "" });
    const services = (listed.listServicesResponse?.service ?? [])
      .map((s) => s.name ?? "")
      .filter((name) => name && !name.startsWith("grpc.reflection."));
    // Each answer carries the file and its imports; dedupe by content before building one descriptor set.
    const files = new Map<string, Buffer>();
    for (const name of services) {
      const answer = await ask({ fileContainingSymbol: name });
      if (answer.errorResponse) throw new Error(`reflection: ${name}: ${answer.errorResponse.errorMessage}`);
      for (const file of answer.fileDescriptorResponse?.fileDescriptorProto ?? [])
        files.set(file.toString("base64"), file);
    }
    // A FileDescriptorSet is field 1, repeated: the files one after another.
    const set = concat([...files.values()].map((file) => lenField(1, file)));
    const loaded = loadFileDescriptorSetFromBuffer(Buffer.from(set), { defaults: false });
    return describe(loaded, services);
  } finally {
    client.close();
  }
}

/** One request on a fresh reflection stream, answered within `timeoutMs`. */
function askVia(client: Client, method: MethodDefinition<object, ReflectionResponse>, timeoutMs: number) {
  return (request: object): Promise<ReflectionResponse> =>
    new Promise((resolve, reject) => {
      const stream = client.makeBidiStreamRequest(
        `/${REFLECTION_METHOD}`,
        method.requestSerialize,
        method.responseDeserialize,
        { deadline: Date.now() + timeoutMs },
      );
      stream.once("data", (response: ReflectionResponse) => {
        resolve(response);
        stream.cancel();
      });
      stream.once("error", (error: Error & { code?: number }) => {
        // Our own cancel after the answer arrives is not an error.
        if (error.code !== 1) reject(error);
      });
      stream.write(request);
      stream.end();
    });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The services' methods and a lookup over every message (nested ones, like map entries, included). */
function describe(definition: PackageDefinition, services: readonly string[]): ReflectedApi {
  const messages = new Map<string, MessageShape>();
  const addMessage = (fullName: string, descriptor: unknown): void => {
    if (!isRecord(descriptor)) return;
    const fields: FieldShape[] = (Array.isArray(descriptor.field) ? descriptor.field : [])
      .filter(isRecord)
      .map((field) => ({
        name: String(field.name ?? ""),
        number: Number(field.number ?? 0),
        repeated: field.label === "LABEL_REPEATED",
        type: String(field.type ?? ""),
        typeName: String(field.typeName ?? ""),
      }));
    messages.set(fullName, { fullName, fields });
    for (const nested of Array.isArray(descriptor.nestedType) ? descriptor.nestedType : []) {
      if (isRecord(nested)) addMessage(`${fullName}.${String(nested.name)}`, nested);
    }
  };
  for (const [name, entry] of Object.entries(definition)) {
    const message = entry as Partial<MessageTypeDefinition<object, object>>;
    if (typeof message.format === "string" && message.format.includes("DescriptorProto"))
      addMessage(name, message.type);
  }
  const methods: MethodShape[] = [];
  const skipped: string[] = [];
  for (const serviceName of services) {
    const service = definition[serviceName];
    if (!isRecord(service)) continue;
    for (const [methodName, value] of Object.entries(service)) {
      const method = value as Partial<MethodDefinition<object, object>>;
      if (typeof method.path !== "string") continue;
      const name = `${serviceName}/${methodName}`;
      if (method.requestStream || method.responseStream) {
        skipped.push(name);
        continue;
      }
      const shortName = isRecord(method.requestType?.type) ? String(method.requestType.type.name ?? "") : "";
      // The descriptor holds the short name: the service's own package first, then any package that has it.
      const packageName = serviceName.split(".").slice(0, -1).join(".");
      const requestType = messages.has(`${packageName}.${shortName}`)
        ? `${packageName}.${shortName}`
        : ([...messages.keys()].find((key) => key.endsWith(`.${shortName}`)) ?? shortName);
      methods.push({ name, path: method.path, requestType });
    }
  }
  return { services: [...services], methods, skipped, lookup: (fullName) => messages.get(fullName) };
}
