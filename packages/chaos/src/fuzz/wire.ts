/*
 * The protobuf wire format, written by hand: the fuzzer must send what no generated serializer would (wrong wire
 * types, overlong varints, lengths past the end), so it encodes every byte itself. Pure.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

/** A base-128 varint; negative numbers are written as their 64-bit two's complement (10 bytes). */
export function varint(value: number | bigint): Uint8Array {
  let n = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0n);
  return Uint8Array.from(bytes);
}

/** A field's tag: its number and wire type. */
export function tag(field: number, wireType: number): Uint8Array {
  return varint((BigInt(field) << 3n) | BigInt(wireType & 7));
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A varint field. */
export function varintField(field: number, value: number | bigint): Uint8Array {
  return concat([tag(field, WIRE_VARINT), varint(value)]);
}

/** A length-delimited field (string, bytes, message, packed repeated). */
export function lenField(field: number, payload: Uint8Array): Uint8Array {
  return concat([tag(field, WIRE_LEN), varint(payload.length), payload]);
}

/** A 64-bit field holding a double. */
export function doubleField(field: number, value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value, true);
  return concat([tag(field, WIRE_FIXED64), bytes]);
}

/** A 32-bit field holding a float. */
export function floatField(field: number, value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return concat([tag(field, WIRE_FIXED32), bytes]);
}

/** ZigZag, as sint32/sint64 fields encode. */
export function zigzag(value: number | bigint): bigint {
  const n = BigInt(value);
  return n >= 0n ? n << 1n : (-n << 1n) - 1n;
}

/** UTF-8 of a JS string (a lone surrogate becomes U+FFFD, as any encoder writes it). */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
