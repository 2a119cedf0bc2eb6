import { describe, expect, it } from "vitest";
import {
  checkWellFormed,
  DerError,
  objectIdentifier,
  readChildren,
  readElement,
  readOnly,
  sequence,
  TAG,
  tlv,
  unsignedInteger,
  x509Time,
} from "./der.js";

const hex = (value: string) => Buffer.from(value.replace(/\s+/g, ""), "hex");

describe("x509Time", () => {
  it.each([
    { at: "1949-12-31T23:59:59.000Z", tag: TAG.GENERALIZED_TIME, text: "19491231235959Z" },
    { at: "1950-01-01T00:00:00.000Z", tag: TAG.UTC_TIME, text: "500101000000Z" },
    { at: "2030-01-02T03:04:05.678Z", tag: TAG.UTC_TIME, text: "300102030405Z" },
    { at: "2049-12-31T23:59:59.999Z", tag: TAG.UTC_TIME, text: "491231235959Z" },
    { at: "2050-01-01T00:00:00.000Z", tag: TAG.GENERALIZED_TIME, text: "20500101000000Z" },
    { at: "2050-06-15T12:30:45.500Z", tag: TAG.GENERALIZED_TIME, text: "20500615123045Z" },
    { at: "9999-12-31T23:59:59.000Z", tag: TAG.GENERALIZED_TIME, text: "99991231235959Z" },
  ])("writes $at as $text", ({ at, tag, text }) => {
    expect(x509Time(new Date(at))).toEqual(tlv(tag, Buffer.from(text, "latin1")));
  });

  it.each([new Date(Number.NaN), new Date("+010000-01-01T00:00:00Z")])("refuses %s", (date) => {
    expect(() => x509Time(date)).toThrow(RangeError);
  });
});

describe("the writer", () => {
  it.each([
    { digits: "01", der: "020101" },
    { digits: "000001", der: "020101" },
    { digits: "00", der: "020100" },
    { digits: "", der: "020100" },
    { digits: "80", der: "02020080" },
    { digits: "0080", der: "02020080" },
    { digits: "7fffffffffffffffffffffffffffffff", der: "02107fffffffffffffffffffffffffffffff" },
  ])("writes INTEGER $digits minimally as $der", ({ digits, der }) => {
    expect(unsignedInteger(hex(digits)).toString("hex")).toBe(der);
  });

  it.each([
    { oid: "1.2.840.10045.4.3.2", der: "06082a8648ce3d040302" },
    { oid: "1.3.6.1.5.5.7.3.2", der: "06082b06010505070302" },
    { oid: "2.5.29.17", der: "0603551d11" },
    { oid: "1.3.101.112", der: "06032b6570" },
    { oid: "2.999.16384", der: "06058837818000" },
  ])("writes OID $oid as $der", ({ oid, der }) => {
    expect(objectIdentifier(oid).toString("hex")).toBe(der);
  });

  it.each([
    { length: 0, header: "0400" },
    { length: 127, header: "047f" },
    { length: 128, header: "048180" },
    { length: 255, header: "0481ff" },
    { length: 256, header: "04820100" },
    { length: 65_536, header: "0483010000" },
  ])("writes a length of $length as $header, and reads it back", ({ length, header }) => {
    const written = tlv(TAG.OCTET_STRING, Buffer.alloc(length, 7));
    expect(written.subarray(0, header.length / 2).toString("hex")).toBe(header);
    expect(readOnly(written, TAG.OCTET_STRING)).toEqual({
      tag: TAG.OCTET_STRING,
      start: 0,
      contentStart: header.length / 2,
      end: written.length,
    });
  });
});

describe("the reader", () => {
  it("reads the children of a SEQUENCE, which they fill", () => {
    const der = sequence(tlv(TAG.INTEGER, Buffer.from([5])), sequence());
    expect(readChildren(der, readOnly(der, TAG.SEQUENCE)).map((child) => child.tag)).toEqual([
      TAG.INTEGER,
      TAG.SEQUENCE,
    ]);
  });

  it.each([
    { name: "nothing", der: "" },
    { name: "a tag alone", der: "30" },
    { name: "a length past the end", der: "3003 0201" },
    { name: "a long length past the end", der: "308180 00" },
    { name: "a length's bytes cut short", der: "3082 01" },
    { name: "an indefinite length", der: "3080 0000" },
    { name: "a five-byte length", der: "3085 0000000001 00" },
    { name: "a huge length", der: "3084 ffffffff 00" },
    { name: "a long form for a short length", der: "3081 01 00" },
    { name: "a leading zero in a length", der: `3082 0080 ${"00".repeat(128)}` },
    { name: "a high tag number", der: "1f01 00" },
    { name: "a wrong tag", der: "3100" },
    { name: "trailing bytes", der: "3000 00" },
  ])("refuses $name", ({ der }) => {
    expect(() => readOnly(hex(der), TAG.SEQUENCE)).toThrow(DerError);
  });

  it("refuses children that overrun their parent, though not the buffer", () => {
    const der = hex("3003 0402 0000 00");
    expect(() => readChildren(der, readElement(der, 0, der.length))).toThrow(DerError);
  });

  it.each([
    { name: "a primitive element, whatever its content", der: "0403 ffffff", ok: true },
    { name: "nested constructed elements", der: "3008 3106 3004 0602 2a03", ok: true },
    { name: "garbage inside a SEQUENCE", der: "3003 ffffff", ok: false },
    { name: "garbage inside a [0]", der: "a003 300500", ok: false },
  ])("checks $name for well-formedness", ({ der, ok }) => {
    const bytes = hex(der);
    const check = () => checkWellFormed(bytes, readElement(bytes, 0, bytes.length));
    if (ok) expect(check).not.toThrow();
    else expect(check).toThrow(DerError);
  });

  it("refuses nesting deeper than any certificate has, without recursing into it", () => {
    let der: Buffer = Buffer.alloc(0);
    for (let depth = 0; depth < 100; depth++) der = sequence(der);
    expect(() => checkWellFormed(der, readOnly(der, TAG.SEQUENCE))).toThrow(DerError);
  });
});
