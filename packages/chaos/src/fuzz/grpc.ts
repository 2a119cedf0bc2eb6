import { Client, credentials, Metadata, type ServiceError, status } from "@grpc/grpc-js";
import type { GrpcCase } from "./grpcCases.js";
import { truncate } from "./mutations.js";
import type { Outcome } from "./tally.js";

/** Sends gRPC cases as raw bytes to one loopback address, each call with a deadline. */
export interface GrpcSender {
  send(grpcCase: GrpcCase): Promise<Outcome>;
  close(): void;
}

const CODE_NAMES = new Map<number, string>(
  Object.entries(status)
    .filter((entry): entry is [string, number] => typeof entry[1] === "number")
    .map(([name, code]) => [code, name]),
);

// Pass-through (de)serializers: the bytes are already the message, malformed on purpose.
const passThrough = (bytes: Buffer): Buffer => bytes;

function metadata(authorization: string): Metadata {
  const sent = new Metadata();
  sent.set("authorization", authorization);
  return sent;
}

export function grpcSender(
  address: string,
  options: { timeoutMs: number; authorization: string },
): GrpcSender {
  if (!/^127\.0\.0\.1:\d+$/.test(address)) throw new Error(`refusing to fuzz ${address}: not 127.0.0.1`);
  // No client-side size limits: the 5 MB cases must reach the server, which decides.
  const client = new Client(address, credentials.createInsecure(), {
    "grpc.max_send_message_length": -1,
    "grpc.max_receive_message_length": -1,
  });
  return {
    send: (grpcCase) =>
      new Promise<Outcome>((resolve) => {
        client.makeUnaryRequest(
          grpcCase.path,
          passThrough,
          passThrough,
          Buffer.from(grpcCase.bytes.buffer, grpcCase.bytes.byteOffset, grpcCase.bytes.byteLength),
          metadata(options.authorization),
          { deadline: Date.now() + options.timeoutMs },
          (error: ServiceError | null) => {
            if (!error) return resolve({ kind: "grpc", code: status.OK, codeName: "OK", detail: "" });
            if (error.code === status.DEADLINE_EXCEEDED)
              return resolve({ kind: "hang", detail: `no answer in ${options.timeoutMs} ms` });
            const codeName = CODE_NAMES.get(error.code) ?? `CODE_${error.code}`;
            resolve({ kind: "grpc", code: error.code, codeName, detail: truncate(error.details ?? "", 100) });
          },
        );
      }),
    close: () => client.close(),
  };
}
