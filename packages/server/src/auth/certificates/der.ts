/**
 * A minimal DER reader and writer: just what reading a PKCS#10 request and writing an agent's certificate
 * take (tag, length, value; no high tag numbers, no indefinite lengths).
 */

/** Universal tags, and the context-specific ones X.509 uses. */
export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  OBJECT_IDENTIFIER: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** `[n]` constructed (EXPLICIT, or IMPLICIT over a constructed type). */
export function contextConstructed(n: number): number {
  return 0xa0 | n;
}

/** `[n]` primitive (IMPLICIT over a primitive type). */
export function contextPrimitive(n: number): number {
  return 0x80 | n;
}

/** Malformed DER: callers turn it into their own error. */
export class DerError extends Error {}

/** One element: its tag and where its header, content and end are in the buffer it was read from. */
export interface DerElement {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

/** Nesting deeper than any certificate or request has is refused rather than recursed into. */
const MAX_DEPTH = 64;

/** The element at `offset`, which must end by `limit`. */
export function readElement(bytes: Uint8Array, offset: number, limit: number): DerElement {
  const tag = byteAt(bytes, offset, limit);
  // High tag numbers (…11111) occur nowhere in X.509; refusing them keeps the header one byte.
  if ((tag & 0x1f) === 0x1f) throw new DerError("high tag number");
  const first = byteAt(bytes, offset + 1, limit);
  let contentStart = offset + 2;
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    // 0: indefinite (BER only); over 4: longer than any buffer this reads.
    if (count === 0 || count > 4) throw new DerError("unsupported length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + byteAt(bytes, contentStart + i, limit);
    // DER lengths are minimal: no leading zero byte, no long form for what the short one holds.
    if (length < 0x80 || byteAt(bytes, contentStart, limit) === 0) throw new DerError("non-minimal length");
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError("length past the end");
  return { tag, start: offset, contentStart, end };
}

/** The whole buffer as exactly one element with `tag` (no trailing bytes). */
export function readOnly(bytes: Uint8Array, tag: number): DerElement {
  const element = expectTag(readElement(bytes, 0, bytes.length), tag);
  if (element.end !== bytes.length) throw new DerError("trailing bytes");
  return element;
}

/** The elements inside a constructed one, which they must fill exactly. */
export function readChildren(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const children: DerElement[] = [];
  for (let offset = parent.contentStart; offset < parent.end; ) {
    const child = readElement(bytes, offset, parent.end);
    children.push(child);
    offset = child.end;
  }
  return children;
}

export function expectTag(element: DerElement | undefined, tag: number): DerElement {
  if (!element || element.tag !== tag) throw new DerError(`expected tag 0x${tag.toString(16)}`);
  return element;
}

/** Checks that every constructed element down from `element` is well-formed (content is not interpreted). */
export function checkWellFormed(bytes: Uint8Array, element: DerElement, depth = 0): void {
  if (!(element.tag & 0x20)) return;
  if (depth >= MAX_DEPTH) throw new DerError("nested too deep");
  for (const child of readChildren(bytes, element)) checkWellFormed(bytes, child, depth + 1);
}

export function content(bytes: Uint8Array, element: DerElement): Uint8Array {
  return bytes.subarray(element.contentStart, element.end);
}

/** The element with its header: what is signed, or copied into another structure. */
export function encoded(bytes: Uint8Array, element: DerElement): Uint8Array {
  return bytes.subarray(element.start, element.end);
}

function byteAt(bytes: Uint8Array, offset: number, limit: number): number {
  const value = offset < limit ? bytes[offset] : undefined;
  if (value === undefined) throw new DerError("truncated");
  return value;
}

/** An element of `tag` over `contents` in order. */
export function tlv(tag: number, ...contents: Uint8Array[]): Buffer {
  let length = 0;
  for (const part of contents) length += part.length;
  return Buffer.concat([Buffer.from([tag, ...lengthBytes(length)]), ...contents]);
}

function lengthBytes(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return [0x80 | bytes.length, ...bytes];
}

export function sequence(...contents: Uint8Array[]): Buffer {
  return tlv(TAG.SEQUENCE, ...contents);
}

/** A non-negative INTEGER from its big-endian bytes, minimal: leading zeros dropped, a 0 before a high bit. */
export function unsignedInteger(bigEndian: Uint8Array): Buffer {
  let first = 0;
  while (first < bigEndian.length - 1 && bigEndian[first] === 0) first++;
  const digits = bigEndian.length === 0 ? Buffer.from([0]) : bigEndian.subarray(first);
  const pad = (digits[0] ?? 0) & 0x80 ? [Buffer.from([0])] : [];
  return tlv(TAG.INTEGER, ...pad, digits);
}

export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split(".").map(Number);
  const [first = 0, second = 0, ...rest] = arcs;
  const bytes: number[] = [];
  for (const arc of [first * 40 + second, ...rest]) {
    // Base 128, most significant first, the high bit set on all but the last.
    const group = [arc % 128];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128)) {
      group.unshift(0x80 | (value % 128));
    }
    bytes.push(...group);
  }
  return tlv(TAG.OBJECT_IDENTIFIER, Buffer.from(bytes));
}

/** A BIT STRING of whole bytes (no unused bits). */
export function bitString(bytes: Uint8Array): Buffer {
  return tlv(TAG.BIT_STRING, Buffer.from([0]), bytes);
}

export function octetString(bytes: Uint8Array): Buffer {
  return tlv(TAG.OCTET_STRING, bytes);
}

export const TRUE = tlv(TAG.BOOLEAN, Buffer.from([0xff]));

/**
 * An X.509 Time (RFC 5280 4.1.2.5): UTCTime for 1950 through 2049, GeneralizedTime otherwise; whole
 * seconds, UTC.
 */
export function x509Time(date: Date): Buffer {
  const year = date.getUTCFullYear();
  if (!Number.isInteger(year) || year < 0 || year > 9999) throw new RangeError(`no X.509 time for ${date}`);
  const rest = [date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes()]
    .map((part) => String(part).padStart(2, "0"))
    .join("");
  // Milliseconds are dropped: RFC 5280 allows no fractions, and @peculiar/x509 truncated them too.
  const seconds = String(date.getUTCSeconds()).padStart(2, "0");
  return year >= 1950 && year < 2050
    ? tlv(TAG.UTC_TIME, Buffer.from(`${String(year % 100).padStart(2, "0")}${rest}${seconds}Z`, "latin1"))
    : tlv(TAG.GENERALIZED_TIME, Buffer.from(`${String(year).padStart(4, "0")}${rest}${seconds}Z`, "latin1"));
}

/** DER as PEM under `label`: base64 in lines of 64 characters (RFC 7468). */
export function toPem(label: string, der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join("\n");
}
