import { describe, expect, it } from "vitest";
import { IdentityRewriter } from "./rewriter.js";
import type { MockupIdentity } from "./types.js";

const identity: MockupIdentity = {
  tokens: [
    { kind: "serial", value: "MT2451X0RS01" },
    { kind: "mac", value: "b83fd2aa1040" },
    { kind: "uuid", value: "4d2f0c1a-7b3e-4f55-9a61-0b1c2d3e4f50" },
  ],
  spellings: [
    { text: "MT2451X0RS01", token: 0, spelling: "exact" },
    { text: "b83fd2aa1040", token: 1, spelling: "bareLower" },
    { text: "b83fd20300aa1040", token: 1, spelling: "guidLower" },
    { text: "B8:3F:D2:AA:10:40", token: 1, spelling: "colonUpper" },
    { text: "4D2F0C1A-7B3E-4F55-9A61-0B1C2D3E4F50", token: 2, spelling: "uuidUpper" },
  ],
  systemSerial: 0,
  chassisSerial: 0,
  managerMac: undefined,
  cards: [],
  dpu: undefined,
  systemPaths: [],
  pathsHaveTokens: false,
};

const rewrite = new IdentityRewriter(identity).forBmc([
  "MT245100000A",
  "b83fd2123440",
  "11111111-2222-4333-8444-555555555555",
]);

describe("IdentityRewrite", () => {
  it("rewrites every spelling to the BMC's value in the same spelling, the GUID before the MAC inside it", () => {
    const served = JSON.stringify({
      SerialNumber: "MT2451X0RS01   ",
      BaseMAC: "b83fd2aa1040",
      BaseGUID: "b83fd20300aa1040",
      Name: "port B8:3F:D2:AA:10:40",
      UUID: "4D2F0C1A-7B3E-4F55-9A61-0B1C2D3E4F50",
      Other: "untouched",
    });
    expect(JSON.parse(rewrite.forward(served))).toEqual({
      SerialNumber: "MT245100000A   ",
      BaseMAC: "b83fd2123440",
      BaseGUID: "b83fd20300123440",
      Name: "port B8:3F:D2:12:34:40",
      UUID: "11111111-2222-4333-8444-555555555555".toUpperCase(),
      Other: "untouched",
    });
  });

  it("rewrites back what a client sends, so writes land in the tree's values", () => {
    const sent = '{"BootOrder":["port B8:3F:D2:12:34:40"],"Serial":"MT245100000A"}';
    expect(rewrite.backward(sent)).toBe('{"BootOrder":["port B8:3F:D2:AA:10:40"],"Serial":"MT2451X0RS01"}');
    expect(rewrite.forward(rewrite.backward(sent))).toBe(sent);
  });
});
