import { describe, expect, it } from "vitest";
import { badQueryEncoding } from "./storableText.js";

describe("badQueryEncoding", () => {
  it.each([
    ["no query", "/api/v1/machines", undefined],
    ["plain values", "/x?state=ready&after=h-1&limit=10", undefined],
    ["UTF-8 escapes and +", "/x?name=r%C3%A9seau+1&flag", undefined],
    ["an empty value", "/x?state=", undefined],
    ["a lone surrogate, percent-encoded", "/x?state=%ED%A0%80", "querystring.state"],
    ["a byte that is not UTF-8", "/x?a=1&tenantOrg=%FF", "querystring.tenantOrg"],
    ["a stray percent", "/x?path=100%", "querystring.path"],
    ["a key that does not decode", "/x?%FF=1", "querystring.%FF"],
  ])("%s → %s", (_, url, field) => {
    expect(badQueryEncoding(url)).toBe(field);
  });
});
