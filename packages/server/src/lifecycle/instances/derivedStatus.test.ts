import { InvalidArgumentError } from "@racksmith/core";
import { describe, expect, it } from "vitest";
import type { ManagedHostState } from "../states.js";
import { parseInstanceConfig } from "./instanceConfig.js";
import {
  configsSynced,
  type NetworkConfigSyncedInput,
  networkConfigSynced,
  networkSyncProblems,
} from "./syncStatus.js";
import { type TenantState, type TenantStateInput, tenantState } from "./tenantState.js";

const observed = (host: number, instance: number | null, observedAt = "2026-01-01T00:00:00.000Z") => ({
  appliedManagedHostConfigVersion: host,
  appliedInstanceConfigVersion: instance,
  observedAt,
});

describe("networkSyncProblems", () => {
  const now = new Date("2026-01-01T00:01:00.000Z");
  const input = (
    observation: ReturnType<typeof observed> | null,
    instanceConfigVersion: number | null = 5,
  ) => ({
    dpus: [{ id: "d1", primary: true, observation }],
    networkConfigVersion: 2,
    instanceConfigVersion,
  });
  it.each([
    ["synced", input(observed(2, 5, "2026-01-01T00:00:59.000Z")), []],
    ["no report", input(null), ["d1: no report from its DPU agent"]],
    [
      "stale report",
      input(observed(2, 5, "2026-01-01T00:00:00.000Z")),
      ["d1: last report 60 s ago (HeartbeatTimeout)"],
    ],
    ["old network config", input(observed(1, 5, "2026-01-01T00:00:59.000Z")), ["d1: applied v1"]],
    [
      "old instance config",
      input(observed(2, 4, "2026-01-01T00:00:59.000Z")),
      ["d1: applied instance config v4 of v5"],
    ],
  ] as const)("%s", (_name, given, expected) => {
    expect(networkSyncProblems(given, { now, timeoutMs: 30_000 })).toEqual(expected);
  });

  it("ignores report age without a heartbeat", () => {
    expect(networkSyncProblems(input(observed(2, 5, "2020-01-01T00:00:00.000Z")))).toEqual([]);
  });
});

describe("networkConfigSynced", () => {
  const cases: Array<[string, NetworkConfigSyncedInput, boolean]> = [
    ["no DPU", { dpus: [], networkConfigVersion: 2, instanceConfigVersion: 1 }, true],
    [
      "every DPU applied both versions",
      {
        dpus: [
          { id: "d1", primary: true, observation: observed(2, 5) },
          { id: "d2", primary: false, observation: observed(2, 5) },
        ],
        networkConfigVersion: 2,
        instanceConfigVersion: 5,
      },
      true,
    ],
    [
      "one DPU still on the previous network version",
      {
        dpus: [
          { id: "d1", primary: true, observation: observed(2, 5) },
          { id: "d2", primary: false, observation: observed(1, 5) },
        ],
        networkConfigVersion: 2,
        instanceConfigVersion: 5,
      },
      false,
    ],
    [
      "instance version behind",
      {
        dpus: [{ id: "d1", primary: true, observation: observed(2, 4) }],
        networkConfigVersion: 2,
        instanceConfigVersion: 5,
      },
      false,
    ],
    [
      "no instance version required",
      {
        dpus: [{ id: "d1", primary: true, observation: observed(2, null) }],
        networkConfigVersion: 2,
        instanceConfigVersion: null,
      },
      true,
    ],
    [
      "a DPU that never reported",
      {
        dpus: [
          { id: "d1", primary: true, observation: observed(2, 5) },
          { id: "d2", primary: false, observation: null },
        ],
        networkConfigVersion: 2,
        instanceConfigVersion: 5,
      },
      false,
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(networkConfigSynced(input)).toBe(expected);
  });
});

describe("configsSynced", () => {
  it.each([
    [{ network: true }, { aggregate: "synced", subsystems: { network: "synced" } }],
    [{ network: false }, { aggregate: "pending", subsystems: { network: "pending" } }],
    [
      { network: true, infiniband: false },
      { aggregate: "pending", subsystems: { network: "synced", infiniband: "pending" } },
    ],
    [
      { network: true, nvlink: true },
      { aggregate: "synced", subsystems: { network: "synced", nvlink: "synced" } },
    ],
    [{}, { aggregate: "synced", subsystems: {} }],
  ])("%j", (input, expected) => {
    expect(configsSynced(input)).toEqual(expected);
  });
});

describe("tenantState", () => {
  const live = { id: "i-1", releaseRequestedAt: null, terminatedAt: null };
  const assigned = (step: string): ManagedHostState =>
    ({ state: "assigned", instanceId: "i-1", instanceState: { step } }) as ManagedHostState;
  const failed: ManagedHostState = {
    state: "failed",
    details: { cause: "cleanup", source: "hostAgent", message: "m", failedAt: "t", failedIn: "x" },
  };
  const cases: Array<[string, Partial<TenantStateInput>, TenantState]> = [
    [
      "terminated",
      { instance: { ...live, terminatedAt: new Date() }, hostState: { state: "ready" } },
      "Terminated",
    ],
    [
      "release requested",
      { instance: { ...live, releaseRequestedAt: new Date() }, hostState: assigned("ready") },
      "Terminating",
    ],
    ["host ready, not picked up", { hostState: { state: "ready" } }, "Provisioning"],
    ["waitingForNetworkConfig", { hostState: assigned("waitingForNetworkConfig") }, "Provisioning"],
    ["waitingForRebootToReady", { hostState: assigned("waitingForRebootToReady") }, "Provisioning"],
    ["ready, synced", { hostState: assigned("ready"), configsSyncedAggregate: "synced" }, "Ready"],
    ["ready, pending", { hostState: assigned("ready"), configsSyncedAggregate: "pending" }, "Configuring"],
    ...[
      "powerCycleOff",
      "powerCycleOn",
      "unlockHost",
      "bootingWithDiscoveryImage",
      "switchToAdminNetwork",
      "waitingForNetworkReconfig",
    ].map((step): [string, Partial<TenantStateInput>, TenantState] => [
      step,
      { hostState: assigned(step) },
      "Terminating",
    ]),
    [
      "assigned to another instance",
      { hostState: { state: "assigned", instanceId: "i-2", instanceState: { step: "ready" } } },
      "Invalid",
    ],
    ["failed", { hostState: failed }, "Failed"],
    ["forceDeletion", { hostState: { state: "forceDeletion" } }, "Terminating"],
    [
      "waitingForCleanup",
      { hostState: { state: "waitingForCleanup", cleanupState: { step: "hostCleanup" } } },
      "Invalid",
    ],
    ["created", { hostState: { state: "created" } }, "Invalid"],
    ["no host state", { hostState: undefined }, "Invalid"],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(
      tenantState({ instance: live, hostState: undefined, configsSyncedAggregate: "synced", ...input }),
    ).toBe(expected);
  });
});

describe("parseInstanceConfig", () => {
  it("takes an absent config or network as no interfaces", () => {
    expect(parseInstanceConfig(undefined)).toEqual({ network: { interfaces: [] } });
    expect(parseInstanceConfig({})).toEqual({ network: { interfaces: [] } });
  });
  it("keeps valid interfaces", () => {
    const config = {
      network: {
        interfaces: [
          { function: "pf0", network: "a" },
          { function: "pf1vf12", network: "b" },
        ],
      },
    };
    expect(parseInstanceConfig(config)).toEqual(config);
  });
  it.each([
    [
      { network: { interfaces: [{ function: "eth0", network: "a" }] } },
      /config\.network\.interfaces\[0\]\.function: "eth0" is not a DPU function/,
    ],
    [
      { network: { interfaces: [{ function: "pf0", network: "" }] } },
      /config\.network\.interfaces\[0\]\.network: must be a non-empty/,
    ],
    [
      {
        network: {
          interfaces: [
            { function: "pf0", network: "a" },
            { function: "pf0", network: "b" },
          ],
        },
      },
      /config\.network\.interfaces\[1\]\.function: pf0 is configured twice/,
    ],
    [{ network: { interfaces: "pf0" } }, /config\.network\.interfaces: must be an array/],
    [[], /config: must be an object/],
  ])("refuses %j", (config, message) => {
    expect(() => parseInstanceConfig(config)).toThrow(InvalidArgumentError);
    expect(() => parseInstanceConfig(config)).toThrow(message);
  });
});
