import { hasErrorCode } from "@racksmith/core";
import { checkInfiniBandFabricSecurity, DEFAULT_PKEY } from "@racksmith/core/infiniband";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UfmInfiniBandFabric } from "../src/fabric/index.js";
import { UfmSimulator } from "../src/simulator/index.js";
import { fabricFor, HOST_A, HOST_B, HOST_C, PORTS, SETTINGS } from "./helpers.js";

describe("UfmInfiniBandFabric (the InfiniBandFabric contract over UFM)", () => {
  let simulator: UfmSimulator;
  let fabric: UfmInfiniBandFabric;

  beforeEach(async () => {
    simulator = await UfmSimulator.start({ ports: PORTS });
    fabric = fabricFor(simulator);
  });
  afterEach(async () => {
    await fabric.close();
    await simulator.stop();
  });

  it("browses a UFM resource read-only, answering the parsed body", async () => {
    const answer = await fabric.browse("/resources/pkeys/0x7fff?guids_data=true");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ partition: "management" });
    expect(simulator.requests.at(-1)).toMatchObject({ method: "GET", path: "/resources/pkeys/0x7fff" });
  });

  it("exposes its name and settings", () => {
    expect(fabric.name).toBe("ufm");
    expect(fabric.settings).toEqual(SETTINGS);
  });

  it("reports versions and the subnet manager config with normalised keys", async () => {
    expect(await fabric.versions()).toEqual({ manager: "UFM", version: "6.19.0-4" });
    simulator.setSecurity({ smKey: "1", mKey: "0" });
    expect(await fabric.subnetManagerConfig()).toEqual({
      subnetPrefix: "0xfe80000000000000",
      mKey: "0x0000000000000000",
      smKey: "0x0000000000000001",
      saKey: "0x0000000000000030",
      mKeyPerPort: true,
    });
  });

  it("feeds the security check: secure by default, every factory setting flagged", async () => {
    const secure = checkInfiniBandFabricSecurity(
      await fabric.subnetManagerConfig(),
      await fabric.getPartition(DEFAULT_PKEY, { guids: true }),
    );
    expect(secure).toEqual([]);
    simulator.setSecurity({
      mKey: "0",
      smKey: "1",
      saKey: "0x1",
      mKeyPerPort: false,
      defaultMembership: "full",
    });
    const findings = checkInfiniBandFabricSecurity(
      await fabric.subnetManagerConfig(),
      await fabric.getPartition(DEFAULT_PKEY, { guids: true }),
    );
    expect(findings.map((finding) => finding.setting)).toEqual([
      "m_key",
      "sm_key",
      "sa_key",
      "m_key_per_port",
      "default_membership",
    ]);
  });

  it("binds GUIDs (any form) as full index0 members, creating the partition; binding again is a no-op", async () => {
    await fabric.bindGuids(0x101, ["0x248A0703009C7E82", "24:8a:07:03:00:9c:7e:83"]);
    await fabric.bindGuids(0x101, [HOST_A]);
    expect(simulator.guidsIn(0x101)).toEqual([HOST_A, HOST_B]);
    const partition = await fabric.getPartition(0x101, { guids: true, qos: true });
    expect(partition).toEqual({
      pkey: 0x101,
      name: "api_pkey_0x101",
      ipOverIb: true,
      qos: { mtu: 2, rateLimit: 2.5, serviceLevel: 0 },
      members: [
        { guid: HOST_A, membership: "full", index0: true },
        { guid: HOST_B, membership: "full", index0: true },
      ],
    });
    expect(simulator.pkeysOf(HOST_A)).toEqual([0x101, DEFAULT_PKEY]);
  });

  it("refuses a GUID that is not 16 hex digits before sending anything", async () => {
    await expect(fabric.bindGuids(0x101, ["nope"])).rejects.toMatchObject({ code: "invalid_argument" });
    expect(simulator.requests).toHaveLength(0);
  });

  it("reports a UFM refusal (unknown GUID) as fabric_rejected", async () => {
    await expect(fabric.bindGuids(0x101, ["0000000000000001"])).rejects.toMatchObject({
      code: "fabric_rejected",
      details: { httpStatus: 400 },
    });
  });

  it("unbinds; the last GUID out removes the partition; unbinding again is a no-op", async () => {
    await fabric.bindGuids(0x101, [HOST_A, HOST_B]);
    await fabric.unbindGuids(0x101, [HOST_A]);
    expect(simulator.guidsIn(0x101)).toEqual([HOST_B]);
    await fabric.unbindGuids(0x101, [HOST_B]);
    expect(simulator.hasPartition(0x101)).toBe(false);
    await fabric.unbindGuids(0x101, [HOST_B]);
    const gone = await fabric.getPartition(0x101).catch((error: unknown) => error);
    expect(hasErrorCode(gone, "fabric_not_found")).toBe(true);
  });

  it("lists partitions with QoS, with GUIDs, and with both without UFM's combined listing", async () => {
    simulator.bindByHand(0x101, [HOST_A]);
    simulator.bindByHand(0x102, [HOST_B], { qos: { mtu_limit: 4, service_level: 1, rate_limit: 100 } });

    const plain = await fabric.listPartitions();
    expect(plain.map((p) => p.pkey)).toEqual([0x101, 0x102, DEFAULT_PKEY]);
    expect(plain[0]?.qos).toBeUndefined();
    expect(plain[0]?.members).toBeUndefined();

    const withQos = await fabric.listPartitions({ qos: true });
    expect(withQos[1]?.qos).toEqual({ mtu: 4, rateLimit: 100, serviceLevel: 1 });

    const withGuids = await fabric.listPartitions({ guids: true });
    expect(withGuids[0]?.members?.map((m) => m.guid)).toEqual([HOST_A]);
    expect(withGuids[2]?.defaultMembership).toBe("limited");
    expect(withGuids[2]?.members).toHaveLength(3);

    simulator.requests.length = 0;
    const both = await fabric.listPartitions({ guids: true, qos: true });
    expect(both.map((p) => [p.pkey, p.members?.length, p.qos?.mtu])).toEqual([
      [0x101, 1, 2],
      [0x102, 1, 4],
      [DEFAULT_PKEY, 3, 2],
    ]);
    const queries = simulator.requests.map((r) => `${r.path}${r.query}`);
    expect(queries[0]).toBe("/resources/pkeys?qos_conf=true");
    expect(queries.slice(1)).toEqual([
      "/resources/pkeys/0x101?guids_data=true&qos_conf=true",
      "/resources/pkeys/0x102?guids_data=true&qos_conf=true",
      "/resources/pkeys/0x7fff?guids_data=true&qos_conf=true",
    ]);
  });

  it("updates QoS, and refuses values UFM would not take", async () => {
    simulator.bindByHand(0x101, [HOST_A]);
    await fabric.updateQos(0x101, { mtu: 4, rateLimit: 200, serviceLevel: 5 });
    expect(simulator.qosOf(0x101)).toEqual({ mtu_limit: 4, rate_limit: 200, service_level: 5 });
    await expect(fabric.updateQos(0x101, { mtu: 3, rateLimit: 7, serviceLevel: 16 })).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringMatching(/mtu 3.*rateLimit 7.*serviceLevel 16/),
    });
    await expect(fabric.updateQos(0x102, { mtu: 4, rateLimit: 200, serviceLevel: 0 })).rejects.toMatchObject({
      code: "fabric_not_found",
    });
  });

  it("lists ports with their states, filtered by GUID, pkey and state", async () => {
    simulator.setPortState(HOST_B, "Initialize");
    simulator.addPort({ guid: "0c42a10300a1b2c4", logicalState: "Polling?" });
    const ports = await fabric.listPorts();
    expect(ports.map((p) => [p.guid, p.state])).toEqual([
      [HOST_A, "active"],
      [HOST_B, "initialize"],
      [HOST_C, "down"],
      ["0c42a10300a1b2c4", "unknown"],
    ]);
    expect(ports[0]).toMatchObject({
      name: `${HOST_A}_1`,
      systemName: "host-a",
      lid: 1,
      deviceName: "mlx5_0",
    });

    expect((await fabric.listPorts({ guids: ["0x248A0703009C7E83"] })).map((p) => p.guid)).toEqual([HOST_B]);
    expect((await fabric.listPorts({ state: "down" })).map((p) => p.guid)).toEqual([HOST_C]);
    simulator.bindByHand(0x101, [HOST_A, HOST_C]);
    expect((await fabric.listPorts({ pkey: 0x101 })).map((p) => p.guid)).toEqual([HOST_A, HOST_C]);
    expect((await fabric.listPorts({ pkey: 0x101, state: "active", guids: [HOST_A, HOST_B] })).length).toBe(
      1,
    );
    expect(await fabric.listPorts({ pkey: 0x155 })).toEqual([]);
  });

  it("reports a malformed answer as fabric_bad_response", async () => {
    simulator.failRequests(200, { pathPrefix: "/resources/ports", body: "not json", count: 1 });
    await expect(fabric.listPorts()).rejects.toMatchObject({ code: "fabric_bad_response" });
    simulator.failRequests(200, { pathPrefix: "/resources/ports", body: '[{"guid":"xyz"}]', count: 1 });
    await expect(fabric.listPorts()).rejects.toMatchObject({
      code: "fabric_bad_response",
      message: expect.stringContaining("GET /resources/ports"),
    });
  });
});
