/**
 * Something the explorer found wrong with an endpoint that an operator must look at (stored with the
 * endpoint, replaced at every run). `SerialNumberMismatch`: the BMC is not the machine its expected-machine
 * entry describes.
 */
export interface EndpointFinding {
  code: "SerialNumberMismatch";
  message: string;
  details: Record<string, string | string[]>;
}

export function serialNumberMismatch(expected: string, found: readonly string[]): EndpointFinding {
  return {
    code: "SerialNumberMismatch",
    message: `expected chassis serial ${JSON.stringify(expected)}, the BMC reports ${
      found.length ? found.map((serial) => JSON.stringify(serial)).join(", ") : "none"
    }`,
    details: { expected, found: [...found] },
  };
}
