import { hasErrorCode } from "@racksmith/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { UfmClient } from "../src/client/index.js";
import { UfmSimulator } from "../src/simulator/index.js";
import { clientFor, HOST_A, HOST_B, PORTS } from "./helpers.js";

describe("UfmClient against the simulator", () => {
  let simulator: UfmSimulator;
  let client: UfmClient;

  beforeEach(async () => {
    simulator = await UfmSimulator.start({ ports: PORTS, auth: { token: "tok" } });
    client = clientFor(simulator);
  });
  afterEach(async () => {
    await client.close();
    await simulator.stop();
  });

  it("reads the version and the subnet manager config", async () => {
    expect(await client.getVersion()).toEqual({ ufm_release_version: "6.19.0-4" });
    expect(await client.getSmConfig()).toMatchObject({ m_key: "0x10", sm_key: "0x20", m_key_per_port: true });
    expect(simulator.requests.map((r) => `${r.base}${r.path}`)).toEqual([
      "/ufmRestV3/app/ufm_version",
      "/ufmRestV3/app/smconf",
    ]);
  });

  it("lists partitions with QoS by default and with GUIDs when asked", async () => {
    simulator.bindByHand(0x101, [HOST_A]);
    const withQos = await client.listPartitions();
    expect(Object.keys(withQos)).toEqual(["0x101", "0x7fff"]);
    expect(withQos["0x101"]?.qos_conf).toBeDefined();
    expect(withQos["0x101"]?.guids).toBeUndefined();
    const withGuids = await client.listPartitions({ guidsData: true });
    expect(withGuids["0x101"]?.guids).toEqual([{ guid: HOST_A, index0: true, membership: "full" }]);
    expect(simulator.requests.map((r) => r.query)).toEqual(["?qos_conf=true", "?guids_data=true"]);
  });

  it("refuses the combined GUID + QoS listing without sending it", async () => {
    await expect(client.listPartitions({ guidsData: true, qosConf: true })).rejects.toMatchObject({
      code: "invalid_argument",
    });
    expect(simulator.requests).toHaveLength(0);
  });

  it("gets one partition with the options as query, and 200 {} as fabric_not_found", async () => {
    simulator.bindByHand(0x101, [HOST_A]);
    const partition = await client.getPartition(0x101, { guidsData: true, qosConf: true });
    expect(partition).toMatchObject({ partition: "api_pkey_0x101", ip_over_ib: true });
    expect(simulator.requests[0]?.query).toBe("?guids_data=true&qos_conf=true");

    const missing = await client.getPartition(0x102).catch((error: unknown) => error);
    expect(hasErrorCode(missing, "fabric_not_found")).toBe(true);
    expect(simulator.requests[1]).toMatchObject({ path: "/resources/pkeys/0x102", status: 200 });
  });

  it("binds, updates QoS and unbinds with UFM's request bodies", async () => {
    await client.bindPorts({
      pkey: "0x101",
      ip_over_ib: true,
      membership: "full",
      index0: true,
      guids: [HOST_A, HOST_B],
    });
    expect(simulator.guidsIn(0x101)).toEqual([HOST_A, HOST_B]);
    await client.updatePartitionQos({ pkey: "0x101", mtu_limit: 4, service_level: 3, rate_limit: 100 });
    expect(simulator.qosOf(0x101)).toEqual({ mtu_limit: 4, service_level: 3, rate_limit: 100 });
    await client.unbindPorts({ pkey: "0x101", guids: [HOST_A] });
    expect(simulator.guidsIn(0x101)).toEqual([HOST_B]);
  });

  it("lists host-facing ports", async () => {
    const ports = await client.listPorts();
    expect(ports).toHaveLength(3);
    expect(ports[0]).toMatchObject({ guid: HOST_A, logical_state: "Active", system_name: "host-a" });
    expect(simulator.requests[0]).toMatchObject({ path: "/resources/ports", query: "?sys_type=Computer" });
  });

  it("passes a raw GET through unchanged", async () => {
    const raw = await client.rawGet("/resources/pkeys/0x7fff");
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.body)).toMatchObject({ partition: "management" });
  });
});
