import type { PackageDefinition } from "@grpc/proto-loader";

/** One field of a message as a request check walks it. */
export interface FieldShape {
  /** As proto-loader decodes it (camelCase). */
  readonly name: string;
  /** What one value is: a string, a nested message, or anything else (numbers, bools, bytes, enums). */
  readonly kind: "string" | "message" | "other";
  /** One value, a `repeated` field (an array) or a `map` (an object; `kind` is its values'). */
  readonly cardinality: "one" | "list" | "map";
  /** The nested message, for `kind: "message"`. */
  readonly message?: MessageShape;
}

export interface MessageShape {
  /** `racksmith.v1.GetMachineRequest` */
  readonly fullName: string;
  readonly fields: readonly FieldShape[];
}

/** The parts of protobufjs's DescriptorProto (proto-loader's `type`) a shape is built from. */
interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}
interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
  options: { mapEntry?: boolean } | null;
}

const MESSAGE_FORMAT = "Protocol Buffer 3 DescriptorProto";

/** The shapes of the messages a loaded package definition holds, looked up by full name. */
export class MessageShapes {
  private readonly descriptors = new Map<string, MessageDescriptor>();
  private readonly shapes = new Map<string, MessageShape>();

  constructor(private readonly definition: PackageDefinition) {
    for (const [name, entry] of Object.entries(definition)) {
      if ("format" in entry && entry.format === MESSAGE_FORMAT)
        this.index(name, entry.type as MessageDescriptor);
    }
  }

  /** The request message of `service`'s `method` (`racksmith.v1.Machines`, `GetMachine`). */
  requestOf(serviceName: string, methodName: string): MessageShape {
    const service = this.definition[serviceName];
    const method = service && !("format" in service) ? service[methodName] : undefined;
    if (!method)
      throw new Error(`gRPC method ${serviceName}/${methodName} is not defined by the loaded protos`);
    return this.shape(this.resolve(serviceName, (method.requestType.type as MessageDescriptor).name));
  }

  private index(fullName: string, descriptor: MessageDescriptor): void {
    this.descriptors.set(fullName, descriptor);
    for (const nested of descriptor.nestedType) this.index(`${fullName}.${nested.name}`, nested);
  }

  private shape(fullName: string): MessageShape {
    const known = this.shapes.get(fullName);
    if (known) return known;
    const descriptor = this.descriptor(fullName);
    const fields: FieldShape[] = [];
    const shape: MessageShape = { fullName, fields };
    // Cached before its fields are built, so a message that contains itself refers to this same shape.
    this.shapes.set(fullName, shape);
    for (const field of descriptor.field) fields.push(this.field(fullName, field));
    return shape;
  }

  private field(scope: string, field: FieldDescriptor): FieldShape {
    const repeated = field.label === "LABEL_REPEATED";
    if (field.type === "TYPE_STRING")
      return { name: field.name, kind: "string", cardinality: repeated ? "list" : "one" };
    if (field.type !== "TYPE_MESSAGE")
      return { name: field.name, kind: "other", cardinality: repeated ? "list" : "one" };
    const typeName = this.resolve(scope, field.typeName);
    const entry = this.descriptor(typeName);
    if (entry.options?.mapEntry) {
      const value = entry.field.find((f) => f.name === "value");
      if (!value) throw new Error(`map entry ${typeName} has no value field`);
      return { ...this.field(typeName, value), name: field.name, cardinality: "map" };
    }
    return {
      name: field.name,
      kind: "message",
      cardinality: repeated ? "list" : "one",
      message: this.shape(typeName),
    };
  }

  /** A type name as protobuf resolves it: relative to `scope`, then to each enclosing scope. */
  private resolve(scope: string, typeName: string): string {
    if (typeName.startsWith(".")) return typeName.slice(1);
    const parts = scope.split(".");
    for (let depth = parts.length; depth >= 0; depth--) {
      const candidate = [...parts.slice(0, depth), typeName].join(".");
      if (this.descriptors.has(candidate)) return candidate;
    }
    throw new Error(`message type ${typeName} (used in ${scope}) is not defined by the loaded protos`);
  }

  private descriptor(fullName: string): MessageDescriptor {
    const descriptor = this.descriptors.get(fullName);
    if (!descriptor) throw new Error(`message type ${fullName} is not defined by the loaded protos`);
    return descriptor;
  }
}
