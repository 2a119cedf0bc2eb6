import { MockupTree } from "@racksmith/testkit";
import { describe, expect, it } from "vitest";
import { resolveMockup } from "../catalog/index.js";
import { discoverIdentity } from "./discoverIdentity.js";
import type { MockupIdentity } from "./types.js";

// The driver packages' own mockups, found at runtime by package name (the simulator never imports a driver).
async function identityOf(vendor: string, model: string): Promise<MockupIdentity> {
  const { dir } = resolveMockup({ vendor, model }, process.cwd(), "mockup");
  return discoverIdentity(await MockupTree.open(dir));
}

function value(identity: MockupIdentity, token: number | undefined): string | undefined {
  return token === undefined ? undefined : identity.tokens[token]?.value;
}

const HOSTS: Array<
  [string, string, { system: string; chassis: string; bmcMac: string; card: string; ports: string[] }]
> = [
  [
    "dell",
    "poweredge-r750",
    {
      system: "CNRSK0075000001",
      chassis: "CNRSK0075000001",
      bmcMac: "d08e79527501",
      card: "MT2301X00101",
      ports: ["b83fd2aa1001", "b83fd2aa1002"],
    },
  ],
  [
    "dell",
    "poweredge-xe9680",
    {
      system: "CNRSK0968000042",
      chassis: "CNRSK0968000042",
      bmcMac: "d08e79968001",
      card: "MT2411X00942",
      ports: ["58a2e1c43101", "58a2e1c43102"],
    },
  ],
  [
    "hpe",
    "proliant-dl380-gen11",
    {
      system: "RSH380G11001",
      chassis: "RSH380G11001",
      bmcMac: "02a611100001",
      card: "RSBF3G11001",
      ports: ["02a611300001"],
    },
  ],
  [
    "hpe",
    "proliant-dl385-gen10-plus-v2",
    {
      system: "RSH385G10P01",
      chassis: "RSH385G10P01",
      bmcMac: "02a510100001",
      card: "RSBF3G10001",
      ports: ["02a510300001", "02a510300002"],
    },
  ],
  [
    "lenovo",
    "thinksystem-sr670-v2",
    {
      system: "RSX670A1",
      chassis: "RSX670A1",
      bmcMac: "021a6b006701",
      card: "MT2410X00101",
      ports: ["b83fd24a1002", "b83fd24a1003"],
    },
  ],
  [
    "lenovo",
    "thinksystem-sr675-v3",
    {
      system: "RSX675B2",
      chassis: "RSX675B2",
      bmcMac: "021a6b007501",
      card: "MT2433X00202",
      ports: ["5c25738e41a0", "5c25738e41a1"],
    },
  ],
  [
    "supermicro",
    "sys-121h-tnr",
    {
      system: "S1212RS0000729",
      chassis: "C1210RS0000729",
      bmcMac: "3cecef2c4d5f",
      card: "MT2410X00729",
      ports: ["b83fd26b2001"],
    },
  ],
  [
    "supermicro",
    "sys-821ge-tnhr",
    {
      system: "S8219RS0000417",
      chassis: "C8010RS0000417",
      bmcMac: "3cecef1a2b3f",
      card: "MT2349X00417",
      ports: ["b83fd25a1001", "b83fd25a1002"],
    },
  ],
];

describe("discoverIdentity on the drivers' host mockups", () => {
  it.each(HOSTS)("%s %s", async (vendor, model, expected) => {
    const identity = await identityOf(vendor, model);
    expect(value(identity, identity.systemSerial)).toBe(expected.system);
    expect(value(identity, identity.chassisSerial)).toBe(expected.chassis);
    expect(value(identity, identity.managerMac)).toBe(expected.bmcMac);
    expect(
      identity.cards.map((card) => ({
        serial: value(identity, card.serial),
        ports: card.ports.map((port) => value(identity, port)),
      })),
    ).toEqual([{ serial: expected.card, ports: expected.ports }]);
    expect(identity.dpu).toBeUndefined();
    expect(identity.pathsHaveTokens).toBe(false);
    // Every token is spelled somewhere, or it would not be a token.
    const spelled = new Set(identity.spellings.map((spelling) => spelling.token));
    expect(identity.tokens.every((_, index) => spelled.has(index))).toBe(true);
  });
});

describe("discoverIdentity on the DPU mockups", () => {
  it("finds the BlueField-3 card serial, Oem.Nvidia.BaseMAC and both places saying DPU mode", async () => {
    const identity = await identityOf("nvidia-dpu", "bluefield-3");
    expect(value(identity, identity.dpu?.serial)).toBe("MT2451X0RS01");
    expect(value(identity, identity.dpu?.baseMac)).toBe("b83fd2aa1040");
    expect(identity.dpu?.modeSettings).toEqual([
      { path: "/redfish/v1/Systems/Bluefield/Bios", pointer: ["Attributes", "NicMode"] },
      { path: "/redfish/v1/Systems/Bluefield/Oem/Nvidia", pointer: ["Mode"] },
    ]);
    const baseSpellings = identity.spellings.filter((spelling) => spelling.token === identity.dpu?.baseMac);
    expect(baseSpellings.map((spelling) => spelling.text).sort()).toEqual([
      "b83f:d203:00aa:1040",
      "b83fd20300aa1040",
      "b83fd2aa1040",
    ]);
    expect(identity.cards).toEqual([]);
  });

  it("derives the BlueField-2 base MAC from the DPU_SYS_IMAGE base GUID", async () => {
    const identity = await identityOf("nvidia-dpu", "bluefield-2");
    expect(value(identity, identity.dpu?.baseMac)).toBe("0c42a1bb2200");
    expect(value(identity, identity.dpu?.serial)).toBe("MT2307X0RS02");
    expect(value(identity, identity.managerMac)).toBe("0c42a1bb2225");
  });
});
