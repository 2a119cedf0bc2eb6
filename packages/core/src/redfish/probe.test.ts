import { afterEach, describe, expect, it } from "vitest";
import { FakeBmc, redfishError, sendJson } from "../../test/support/fakeBmc.js";
import { RedfishClient } from "./client.js";
import { probeService } from "./probe.js";

const link = (path: string) => ({ "@odata.id": path });
const ROOT = {
  "@odata.id": "/redfish/v1",
  Vendor: "Contoso",
  Systems: link("/redfish/v1/Systems"),
  Managers: link("/redfish/v1/Managers"),
  Chassis: link("/redfish/v1/Chassis"),
};
const METADATA = `<?xml version="1.0" encoding="UTF-8"?>
<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0">
  <edmx:Reference Uri="/redfish/v1/schemas/ContosoOem_v1.xml"><edmx:Include Namespace="ContosoOem"/></edmx:Reference>
</edmx:Edmx>`;

let bmc: FakeBmc | undefined;
afterEach(async () => {
  await bmc?.stop();
});

/** A BMC that shows its root and `$metadata` to anyone and its collections with credentials only. */
async function startBmc(): Promise<FakeBmc> {
  return FakeBmc.start((request, response) => {
    const path = request.url.split("?")[0];
    if (path === "/redfish/v1") return sendJson(response, 200, ROOT);
    if (path === "/redfish/v1/$metadata") {
      response.writeHead(200, { "Content-Type": "application/xml" });
      return response.end(METADATA);
    }
    if (!request.headers.authorization) return sendJson(response, 401, redfishError("NoValidSession"));
    const id = path?.split("/").pop() ?? "";
    return sendJson(response, 200, { Members: [link(`${path}/${id.toLowerCase()}-1`)] });
  });
}

describe("probeService", () => {
  it("reads the root, $metadata and the three collections", async () => {
    bmc = await startBmc();
    const client = new RedfishClient({ address: bmc.url, credentials: { username: "u", password: "p" } });
    const probe = await probeService(client);
    await client.close();
    expect(probe).toMatchObject({
      vendor: "Contoso",
      systemIds: ["systems-1"],
      managerIds: ["managers-1"],
      chassisIds: ["chassis-1"],
    });
    expect(probe.metadata).toBeDefined();
    expect(bmc.requests).toHaveLength(5);
  });

  it("reads no collection without credentials, then only the collections for the same BMC with them", async () => {
    bmc = await startBmc();
    const anonymous = new RedfishClient({ address: bmc.url });
    const described = await probeService(anonymous, { members: false });
    await anonymous.close();
    expect(bmc.requests.map((request) => request.url).sort()).toEqual([
      "/redfish/v1",
      "/redfish/v1/$metadata",
    ]);
    expect(described).toMatchObject({ vendor: "Contoso", systemIds: [], managerIds: [], chassisIds: [] });

    const client = new RedfishClient({ address: bmc.url, credentials: { username: "u", password: "p" } });
    const probe = await probeService(client, { described });
    await client.close();
    expect(
      bmc.requests
        .slice(2)
        .map((request) => request.url)
        .sort(),
    ).toEqual(["/redfish/v1/Chassis", "/redfish/v1/Managers", "/redfish/v1/Systems"]);
    // The same description a probe from scratch gives.
    const fresh = new RedfishClient({ address: bmc.url, credentials: { username: "u", password: "p" } });
    expect(probe).toEqual(await probeService(fresh));
    await fresh.close();
  });
});
