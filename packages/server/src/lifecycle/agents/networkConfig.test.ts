import { describe, expect, it } from "vitest";
import { type DesiredNetworkConfigInput, desiredNetworkConfig } from "./networkConfig.js";

const config = {
  network: {
    interfaces: [
      { function: "pf0", network: "tenant-a" },
      { function: "pf0vf1", network: "tenant-b" },
    ],
  },
};
const instance = { id: "i-1", configVersion: 3, config, terminatedAt: null };
const primary = { id: "dpu-1", hostId: "h-1", primary: true };
const secondary = { id: "dpu-2", hostId: "h-1", primary: false };
const tenantNetwork = { useAdminNetwork: false, networkConfigVersion: 4 };
const adminNetwork = { useAdminNetwork: true, networkConfigVersion: 2 };
const admin = { function: "pf0", network: "admin" };

describe("desiredNetworkConfig", () => {
  const cases: Array<[string, DesiredNetworkConfigInput, ReturnType<typeof desiredNetworkConfig>]> = [
    [
      "admin network, no instance",
      { dpu: primary, host: adminNetwork, instance: undefined },
      {
        dpuId: "dpu-1",
        hostId: "h-1",
        managedHostConfigVersion: 2,
        useAdminNetwork: true,
        adminInterface: admin,
        tenantInterfaces: [],
      },
    ],
    [
      "admin network with an instance not yet picked up: still isolated, no instance",
      { dpu: primary, host: adminNetwork, instance },
      {
        dpuId: "dpu-1",
        hostId: "h-1",
        managedHostConfigVersion: 2,
        useAdminNetwork: true,
        adminInterface: admin,
        tenantInterfaces: [],
      },
    ],
    [
      "tenant network, primary DPU: the instance's interfaces",
      { dpu: primary, host: tenantNetwork, instance },
      {
        dpuId: "dpu-1",
        hostId: "h-1",
        managedHostConfigVersion: 4,
        useAdminNetwork: false,
        adminInterface: admin,
        tenantInterfaces: config.network.interfaces,
        instanceId: "i-1",
        instanceConfigVersion: 3,
      },
    ],
    [
      "tenant network, secondary DPU: no interfaces, but the instance version",
      { dpu: secondary, host: tenantNetwork, instance },
      {
        dpuId: "dpu-2",
        hostId: "h-1",
        managedHostConfigVersion: 4,
        useAdminNetwork: false,
        adminInterface: admin,
        tenantInterfaces: [],
        instanceId: "i-1",
        instanceConfigVersion: 3,
      },
    ],
    [
      "tenant network, terminated instance: none",
      { dpu: primary, host: tenantNetwork, instance: { ...instance, terminatedAt: new Date() } },
      {
        dpuId: "dpu-1",
        hostId: "h-1",
        managedHostConfigVersion: 4,
        useAdminNetwork: false,
        adminInterface: admin,
        tenantInterfaces: [],
      },
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(desiredNetworkConfig(input)).toEqual(expected);
  });
});
