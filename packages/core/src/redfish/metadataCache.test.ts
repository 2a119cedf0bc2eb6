import { describe, expect, it } from "vitest";
import type { ServiceMetadata } from "./metadata.js";
import { createMetadataCache, parseServiceMetadataCached } from "./metadataCache.js";

const document = (namespace: string) =>
  `<?xml version="1.0"?><edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">` +
  `<edmx:Reference Uri="/redfish/v1/schema"><edmx:Include Namespace="${namespace}"/></edmx:Reference>` +
  `</edmx:Edmx>`;

/** A parser that counts its calls and answers with the document's length as a namespace. */
function countingParser() {
  const calls: string[] = [];
  const parse = (xml: string): ServiceMetadata | undefined => {
    calls.push(xml);
    return xml === "not xml"
      ? undefined
      : { namespaces: [String(xml.length)], oemNamespaces: [], oemPrefixes: [] };
  };
  return { calls, parse };
}

describe("the $metadata cache", () => {
  it("parses a document once however many BMCs serve it, and a different one again", () => {
    const { calls, parse } = countingParser();
    const cached = createMetadataCache(parse);
    const first = cached("<a/>");
    expect(cached("<a/>")).toEqual(first);
    expect(cached("<bb/>")).toEqual({ namespaces: ["5"], oemNamespaces: [], oemPrefixes: [] });
    expect(cached("not xml")).toBeUndefined();
    expect(cached("not xml")).toBeUndefined();
    expect(calls).toEqual(["<a/>", "<bb/>", "not xml"]);
  });

  it("hands out copies: a caller changing its arrays changes nothing for the next one", () => {
    const cached = createMetadataCache(countingParser().parse);
    cached("<a/>")?.namespaces.push("mutated");
    expect(cached("<a/>")?.namespaces).toEqual(["4"]);
  });

  it("keeps the most recently used documents up to its limit", () => {
    const { calls, parse } = countingParser();
    const cached = createMetadataCache(parse, 2);
    cached("<a/>");
    cached("<bb/>");
    cached("<a/>"); // <a/> is now the most recent; <bb/> goes when a third arrives
    cached("<ccc/>");
    cached("<a/>");
    cached("<bb/>");
    expect(calls).toEqual(["<a/>", "<bb/>", "<ccc/>", "<bb/>"]);
  });

  it("is what the probe uses, with the real parser behind it", () => {
    expect(parseServiceMetadataCached(document("DellAttributes.v1_0_0"))).toMatchObject({
      oemNamespaces: ["DellAttributes"],
    });
  });
});
