import type { JsonObject, MockupBehavior } from "@racksmith/testkit";

export interface RecordedWrite {
  method: "PATCH" | "POST";
  path: string;
  body: JsonObject;
}

/**
 * A behavior that records every PATCH and (non-action) POST that reaches the BMC, then lets the request go on.
 * Put it first so it sees requests the vendor behaviors answer themselves.
 */
export function writeRecorder(): MockupBehavior & { writes: RecordedWrite[]; clear(): void } {
  const writes: RecordedWrite[] = [];
  return {
    name: "test-write-recorder",
    writes,
    clear: () => void writes.splice(0),
    patch: {
      "/**": ({ request, body }) => {
        writes.push({ method: "PATCH", path: request.pathname, body });
        return undefined;
      },
    },
    post: {
      "/**": ({ request, body }) => {
        writes.push({ method: "POST", path: request.pathname, body });
        return undefined;
      },
    },
  };
}
