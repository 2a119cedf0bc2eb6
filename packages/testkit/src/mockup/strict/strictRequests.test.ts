import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_MOCKUP } from "../../index.js";
import { http, messageIds } from "../__fixtures__/http.js";
import { MockupServer } from "../mockupServer.js";
import { MockupService } from "../mockupService.js";
import { MockupTree } from "../mockupTree.js";
import { REDFISH_RULE_NAMES } from "./rules.js";

/** Strict mode (the default) against the bundled example mockup: one test per rule of DSP0266 it keeps. */

let strict: MockupServer;
let lenient: MockupServer;

beforeAll(async () => {
  strict = await MockupServer.start({ root: EXAMPLE_MOCKUP });
  lenient = await MockupServer.start({ root: EXAMPLE_MOCKUP, strict: false });
});
afterAll(async () => {
  await strict?.stop();
  await lenient?.stop();
});

/** One request written by hand: fetch cannot send a method Node's parser does not know. */
async function rawRequest(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("methods", () => {
  it("answers a PATCH of the service root 405 with Allow, and changes nothing", async () => {
    const answer = await http(strict.url, "PATCH", "/redfish/v1", { body: { Name: "x" } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD");
    expect((await http(strict.url, "GET", "/redfish/v1")).json.Name).not.toBe("x");
  });

  it("answers POST to a collection that creates nothing 405, and PUT 405 with the resource's Allow", async () => {
    const post = await http(strict.url, "POST", "/redfish/v1/Systems", { body: { Name: "new" } });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const put = await http(strict.url, "PUT", "/redfish/v1/Systems/1", { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, PATCH");
  });

  it("answers a method it does not implement 501, also one Node's HTTP parser does not know", async () => {
    expect((await http(strict.url, "PROPFIND", "/redfish/v1")).status).toBe(501);
    const answer = await rawRequest(strict.url, "FOO /redfish/v1 HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 501 /);
    expect(answer).toContain('"@Message.ExtendedInfo"');
  });

  it("keeps the lenient answers with strict: false", async () => {
    expect((await http(lenient.url, "PATCH", "/redfish/v1", { body: { Description: "x" } })).status).toBe(
      204,
    );
    expect((await rawRequest(lenient.url, "FOO /redfish/v1 HTTP/1.1\r\nHost: x\r\n\r\n")).slice(0, 12)).toBe(
      "HTTP/1.1 400",
    );
  });
});

describe("OData-Version", () => {
  it("refuses 4.1 with 412 and serves 4.0 or no header", async () => {
    const refused = await http(strict.url, "GET", "/redfish/v1/Systems", {
      headers: { "OData-Version": "4.1" },
    });
    expect(refused.status).toBe(412);
    expect(refused.text).toContain("4.1");
    expect(
      (await http(strict.url, "GET", "/redfish/v1/Systems", { headers: { "OData-Version": "4.0" } })).status,
    ).toBe(200);
    expect(
      (await http(lenient.url, "GET", "/redfish/v1/Systems", { headers: { "OData-Version": "4.1" } })).status,
    ).toBe(200);
  });
});

describe("query parameters", () => {
  it.each([
    ["?only=foo", 400, "QueryParameterValueFormatError"],
    ["?$unknown", 501, "QueryParameterUnsupported"],
    ["?$filter=Id%20eq%201", 501, "QueryParameterUnsupported"],
    ["?$top=x", 400, "QueryParameterValueFormatError"],
  ])("GET /redfish/v1/Systems%s → %i %s", async (query, status, message) => {
    const answer = await http(strict.url, "GET", `/redfish/v1/Systems${query}`);
    expect(answer.status).toBe(status);
    expect(messageIds(answer.json)).toEqual([`Base.1.8.${message}`]);
  });

  it("ignores unknown parameters without $, and answers ?only with the one member", async () => {
    expect((await http(strict.url, "GET", "/redfish/v1/Systems?foo=bar")).status).toBe(200);
    const only = await http(strict.url, "GET", "/redfish/v1/Systems?only");
    expect(only.status).toBe(200);
    expect(only.json["@odata.id"]).toBe("/redfish/v1/Systems/1");
  });
});

describe("response headers", () => {
  it("sends Allow, Cache-Control and a describedby Link on GET and HEAD", async () => {
    for (const method of ["GET", "HEAD"]) {
      const answer = await http(strict.url, method, "/redfish/v1/Systems/1");
      expect(answer.headers.get("allow")).toBe("GET, HEAD, PATCH");
      expect(answer.headers.get("cache-control")).toBe("no-cache");
      expect(answer.headers.get("link")).toMatch(
        /^<http:\/\/redfish\.dmtf\.org\/schemas\/v1\/ComputerSystem\.v\d+_\d+_\d+\.json>; rel=describedby$/,
      );
    }
    expect((await http(strict.url, "GET", "/redfish/v1/Systems")).headers.get("allow")).toBe("GET, HEAD");
    expect((await http(strict.url, "GET", "/redfish/v1/SessionService/Sessions")).headers.get("allow")).toBe(
      "GET, HEAD, POST",
    );
  });
});

describe("leniencies", () => {
  it("lets a service option or a vendor behavior relax one rule and keeps the others", async () => {
    const tree = await MockupTree.open(EXAMPLE_MOCKUP);
    const byOption = new MockupService(tree, { lenient: ["odataVersion"] });
    expect(byOption.rules.enforced).not.toContain("odataVersion");
    expect(byOption.rules.enforced).toContain("methods");
    const asked = { method: "GET", path: "/redfish/v1", headers: { "odata-version": "4.1" } };
    expect((await byOption.handle(asked)).status).toBe(200);

    const byBehavior = new MockupService(tree);
    expect((await byBehavior.handle(asked)).status).toBe(412);
    const remove = byBehavior.use({
      name: "old-bmc",
      leniencies: { odataVersion: "this BMC ignores OData-Version" },
    });
    expect((await byBehavior.handle(asked)).status).toBe(200);
    remove();
    expect((await byBehavior.handle(asked)).status).toBe(412);
  });

  it("refuses an unknown rule name, naming the rules", () => {
    expect(() => new MockupService({} as MockupTree, { lenient: ["nope" as never] })).toThrow(
      new RegExp(`lenient: unknown rule\\(s\\) nope; the rules are ${REDFISH_RULE_NAMES.join(", ")}`),
    );
  });
});
