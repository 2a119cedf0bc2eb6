import { describe, expect, it } from "vitest";
import { desiredPkeys } from "./desired.js";
import { interfaceGuid } from "./hostPorts.js";

const CX7 = "MT2910 Family [ConnectX-7]";
const ports = [
  { device: CX7, port: 1, guid: "0xB83FD20000000010", rateGbps: 400 },
  { device: CX7, port: 2, guid: "b8:3f:d2:00:00:00:00:11", rateGbps: 400 },
  { device: "MT4129 [ConnectX-7 OSFP]", port: 1, guid: "b83fd20000000020", rateGbps: 400 },
];
const iface = (device: string, deviceInstance: number, virtualFunction: number | null = null) => ({
  device,
  deviceInstance,
  virtualFunction,
  partitionId: "p1",
});

describe("interfaceGuid", () => {
  it.each([
    { name: "the first port of a model", input: iface(CX7, 0), expected: "b83fd20000000010" },
    { name: "the second, normalised", input: iface(CX7, 1), expected: "b83fd20000000011" },
    { name: "another model", input: iface("MT4129 [ConnectX-7 OSFP]", 0), expected: "b83fd20000000020" },
  ])("$name", ({ input, expected }) => {
    expect(interfaceGuid(ports, input, "infiniband.interfaces[0]")).toBe(expected);
  });

  it.each([
    { name: "a port the host lacks", input: iface(CX7, 2), message: /has 2 port\(s\)/ },
    { name: "an unknown model", input: iface("ConnectX-6", 0), message: /no port of "ConnectX-6"/ },
    {
      name: "a virtual function",
      input: iface(CX7, 0, 1),
      message: /virtualFunction: InfiniBand virtual functions/,
    },
  ])("refuses $name, naming the field", ({ input, message }) => {
    expect(() => interfaceGuid(ports, input, "infiniband.interfaces[0]")).toThrow(message);
  });
});

describe("desiredPkeys", () => {
  const config = {
    network: { interfaces: [] },
    infiniband: { interfaces: [iface(CX7, 0), { ...iface(CX7, 1), partitionId: "gone" }] },
  };
  it.each([
    { name: "a live instance's ports", releaseRequested: false, expected: [["b83fd20000000010", [0x101]]] },
    { name: "nothing once release is asked", releaseRequested: true, expected: [] },
  ])("$name", ({ releaseRequested, expected }) => {
    const desired = desiredPkeys(ports, { id: "i1", config, releaseRequested }, (id) =>
      id === "p1" ? 0x101 : undefined,
    );
    expect([...desired].map(([guid, pkeys]) => [guid, [...pkeys]])).toEqual(expected);
  });
});
