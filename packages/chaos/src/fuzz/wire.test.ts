import { describe, expect, it } from "vitest";
import { buildGrpcCase, GRPC_CATEGORIES, type MessageShape, type MethodShape } from "./grpcCases.js";
import { createRng } from "./prng.js";
import { lenField, tag, varint, zigzag } from "./wire.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("wire encoding", () => {
  it.each<[string, number | bigint, string]>([
    ["0", 0, "00"],
    ["1", 1, "01"],
    ["300", 300, "ac02"],
    ["-1 as ten bytes", -1, "ffffffffffffffffff01"],
    ["2^64-1", 2n ** 64n - 1n, "ffffffffffffffffff01"],
  ])("writes the varint %s", (_, value, bytes) => {
    expect(hex(varint(value))).toBe(bytes);
  });

  it.each([
    [1, 0, "08"],
    [2, 2, "12"],
    [536_870_911, 0, "f8ffffff0f"],
  ])("writes the tag of field %i, wire type %i", (field, wireType, bytes) => {
    expect(hex(tag(field, wireType))).toBe(bytes);
  });

  it("writes a length-delimited field and zigzag", () => {
    expect(hex(lenField(1, Buffer.from("hi")))).toBe("0a026869");
    expect([zigzag(0), zigzag(-1), zigzag(1), zigzag(-2)]).toEqual([0n, 1n, 2n, 3n]);
  });
});

describe("buildGrpcCase", () => {
  const messages: Record<string, MessageShape> = {
    "t.Req": {
      fullName: "t.Req",
      fields: [
        { name: "machine_id", number: 1, repeated: false, type: "TYPE_STRING", typeName: "" },
        { name: "limit", number: 2, repeated: false, type: "TYPE_UINT32", typeName: "" },
        { name: "tags", number: 3, repeated: true, type: "TYPE_STRING", typeName: "" },
        { name: "inner", number: 4, repeated: false, type: "TYPE_MESSAGE", typeName: ".t.Inner" },
      ],
    },
    "t.Inner": {
      fullName: "t.Inner",
      fields: [{ name: "ratio", number: 1, repeated: false, type: "TYPE_DOUBLE", typeName: "" }],
    },
  };
  const method: MethodShape = { name: "t.Svc/Do", path: "/t.Svc/Do", requestType: "t.Req" };
  const build = (category: (typeof GRPC_CATEGORIES)[number], seed: number) =>
    buildGrpcCase(method, category, {
      rng: createRng(seed),
      lookup: (name) => messages[name],
      vocabulary: new Map([["machineid", ["host-1"]]]),
    });

  it.each(GRPC_CATEGORIES)("builds %s cases deterministically, each described", (category) => {
    for (let seed = 1; seed <= 5; seed++) {
      const a = build(category, seed);
      expect(a.description.startsWith(`${category}: `)).toBe(true);
      expect(hex(a.bytes)).toBe(hex(build(category, seed).bytes));
    }
  });

  it("uses known ids for string fields of valid cases", () => {
    const bytes = Buffer.from(build("valid", 1).bytes);
    expect(bytes.includes(Buffer.from("host-1")) || !bytes.includes(0x0a)).toBe(true);
  });

  it("sends nothing for an empty case and 1,000 elements or more for a repeated one", () => {
    expect(build("empty", 1).bytes).toHaveLength(0);
    expect(build("repeated-hostile", 2).bytes.length).toBeGreaterThan(1_000);
  });
});
