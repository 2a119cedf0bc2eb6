import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import type { RedfishHttpError } from "./errors.js";
import { etagsMatch, normalizeEtag } from "./etag.js";

describe("normalizeEtag", () => {
  it.each([
    ['"abc"', '"abc"'],
    ["abc", '"abc"'],
    ['W/"abc"', 'W/"abc"'],
    ['w/"abc"', 'W/"abc"'],
    ['""abc""', '"abc"'],
    ['\\"abc\\"', '"abc"'],
    ["  ", undefined],
    [undefined, undefined],
  ])("%s → %s", (raw, expected) => {
    expect(normalizeEtag(raw)).toBe(expected);
  });

  it("matches weak and strong forms of the same tag", () => {
    expect(etagsMatch('W/"1"', '"1"')).toBe(true);
    expect(etagsMatch("1", '"1"')).toBe(true);
    expect(etagsMatch('"1"', '"2"')).toBe(false);
  });
});

describe("PATCH with If-Match", () => {
  let bmc: FakeBmc;
  let etagStyle: "header" | "body" | "weak" = "header";
  let requireIfMatch = false;
  let version = 1;

  beforeAll(async () => {
    bmc = await FakeBmc.start((request, response) => {
      const tag = `v${version}`;
      if (request.method === "GET") {
        const headers: Record<string, string> =
          etagStyle === "header" ? { ETag: `"${tag}"` } : etagStyle === "weak" ? { ETag: `W/"${tag}"` } : {};
        const body = { "@odata.id": request.url, ...(etagStyle === "body" ? { "@odata.etag": tag } : {}) };
        return sendJson(response, 200, body, headers);
      }
      const ifMatch = request.headers["if-match"];
      if (!ifMatch && requireIfMatch)
        return sendJson(response, 428, redfishError("Base.1.8.PreconditionRequired"));
      if (ifMatch && ifMatch !== "*" && ifMatch.replace(/^W\//, "") !== `"${tag}"`) {
        return sendJson(response, 412, redfishError("Base.1.8.PreconditionFailed"));
      }
      version++;
      return sendJson(response, 204, undefined);
    });
  });
  afterAll(() => bmc.stop());
  beforeEach(() => {
    bmc.requests.length = 0;
    requireIfMatch = false;
  });

  const client = (): RedfishClient => new RedfishClient({ address: bmc.url });

  it.each([
    ["header", '"v'],
    ["weak", 'W/"v'],
    ["body", '"v'],
  ] as const)("auto reads the ETag from the %s and sends it back", async (style, prefix) => {
    etagStyle = style;
    const c = client();
    await c.patch("/redfish/v1/AccountService/Accounts/2", { Password: "x" }, { ifMatch: "auto" });
    const patch = bmc.requests.find((r) => r.method === "PATCH");
    expect(patch?.headers["if-match"]).toBe(`${prefix}${version - 1}"`);
    await c.close();
  });

  it("sends If-Match: * when asked", async () => {
    const c = client();
    await c.patch("/redfish/v1/Systems/1", { AssetTag: "a" }, { ifMatch: "*" });
    expect(bmc.requests.map((r) => r.headers["if-match"])).toEqual(["*"]);
    await c.close();
  });

  it("surfaces 412 on a stale ETag", async () => {
    etagStyle = "header";
    const c = client();
    const error = await c
      .patch("/redfish/v1/Systems/1", { AssetTag: "a" }, { ifMatch: { etag: "v0" } })
      .catch((e: unknown) => e);
    expect((error as RedfishHttpError).httpStatus).toBe(412);
    expect((error as RedfishHttpError).hasMessageId("PreconditionFailed")).toBe(true);
    await c.close();
  });

  it("retries once with the current ETag when the BMC demands one (428)", async () => {
    etagStyle = "header";
    requireIfMatch = true;
    const c = client();
    await c.patch("/redfish/v1/Systems/1", { AssetTag: "b" });
    expect(bmc.requests.map((r) => `${r.method} ${r.headers["if-match"] ?? "-"}`)).toEqual([
      "PATCH -",
      `GET -`,
      `PATCH "v${version - 1}"`,
    ]);
    await c.close();
  });
});
