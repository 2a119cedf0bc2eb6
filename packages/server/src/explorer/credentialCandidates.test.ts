import { describe, expect, it } from "vitest";
import { TestCredentialStore } from "./__fixtures__/memoryCredentials.js";
import { credentialCandidates } from "./credentialCandidates.js";

const MAC = "AA:BB:CC:00:00:01";
const login = (password: string, username = "root") => ({ username, password });

describe("credentialCandidates", () => {
  it("tries a rotation intent first, then the BMC's own login, then its factory login", async () => {
    const store = new TestCredentialStore([
      [{ kind: "bmc-rotation", mac: MAC }, login("next")],
      [{ kind: "bmc", mac: MAC }, login("own")],
      [{ kind: "bmc-factory", mac: MAC }, login("factory", "admin")],
      [{ kind: "factory-default", vendor: "dell" }, login("calvin")],
    ]);
    const candidates = await credentialCandidates(store, { mac: MAC, vendorKeys: ["dell"] });
    expect(candidates.map((c) => [c.source, c.credentials.password])).toEqual([
      ["rotation-intent", "next"],
      ["bmc", "own"],
      ["bmc-factory", "factory"],
    ]);
  });

  it("falls back to the vendor's factory default (first vendor key that has one) and skips duplicates", async () => {
    const store = new TestCredentialStore([
      [{ kind: "bmc", mac: MAC }, login("calvin")],
      [{ kind: "factory-default", vendor: "dell" }, login("calvin")],
      [{ kind: "factory-default", vendor: "nvidia" }, login("0penBmc")],
    ]);
    expect(
      (await credentialCandidates(store, { mac: MAC, vendorKeys: ["dell"] })).map((c) => c.source),
    ).toEqual(["bmc"]);
    const dpu = await credentialCandidates(store, {
      mac: "AA:BB:CC:00:00:02",
      vendorKeys: ["nvidia-dpu", "NVIDIA", "Nvidia BMC with spaces"],
    });
    expect(dpu).toEqual([{ source: "factory-default", credentials: login("0penBmc") }]);
  });

  it("has nothing to try for an unknown BMC of an unknown vendor", async () => {
    expect(await credentialCandidates(new TestCredentialStore(), { mac: undefined, vendorKeys: [] })).toEqual(
      [],
    );
  });
});
