import { describe, expect, it } from "vitest";
import type { BootOrderInfo } from "../drivers/types.js";
import { isNotSupported, NotSupportedError } from "../errors/index.js";
import { silentLogger } from "../logging/index.js";
import type { RedfishClient, RedfishObject } from "../redfish/index.js";
import { toBootOptionInfo } from "./mappers.js";
import {
  attributeDiffs,
  BootOptionNotFoundError,
  diffAttributes,
  jobStateOf,
  RedfishStandard,
  triState,
} from "./redfishStandard.js";

/** RedfishStandard with its protected action lookup exposed and boot options given; it never talks to a BMC. */
class Offline extends RedfishStandard {
  constructor(private readonly boot: BootOrderInfo = { order: [], options: [] }) {
    super({} as RedfishClient, { logger: silentLogger });
  }
  target(resource: RedfishObject, action: string): string | undefined {
    return this.actionTarget(resource, action);
  }
  values(resource: RedfishObject, action: string, parameter: string): Promise<string[] | undefined> {
    return this.allowableValues(resource, action, parameter);
  }
  override async bootOptions(): Promise<BootOrderInfo> {
    return this.boot;
  }
  protected override async setBootOrder(order: string[]): Promise<void> {
    this.boot.order = order;
  }
}

describe("RedfishStandard pure helpers", () => {
  it("diffs staged BIOS attributes against current ones", () => {
    expect(diffAttributes({ A: "x", B: 1, C: true }, { A: "x", B: 2, D: "new" })).toEqual({ B: 2, D: "new" });
    expect(attributeDiffs({ A: "x", B: 1, Z: "z" }, { A: "x", B: "1" })).toEqual([
      { key: "Z", expected: "z", actual: "(missing)" },
    ]);
  });

  it.each([
    [
      [
        ["a", true],
        ["b", true],
      ],
      "enabled",
    ],
    [
      [
        ["a", false],
        ["b", false],
      ],
      "disabled",
    ],
    [
      [
        ["a", true],
        ["b", false],
      ],
      "partial",
    ],
  ] as const)("%j is %s", (flags, state) => {
    expect(triState(flags).state).toBe(state);
  });

  it("says what is on and off", () => {
    expect(
      triState([
        ["system IPMI", true],
        ["manager serial console", false],
      ]).message,
    ).toBe("enabled: system IPMI; disabled: manager serial console");
  });

  it.each([
    ["Running", "running"],
    ["Completed", "completed"],
    ["CompletedWithErrors", "completedWithErrors"],
    ["Exception", "failed"],
    ["Scheduled", "scheduled"],
    ["Weird", "unknown"],
  ])("job state %s → %s", (raw, state) => {
    expect(jobStateOf(raw)).toBe(state);
  });
});

describe("RedfishStandard.actionTarget", () => {
  const driver = new Offline();
  const system = (actions: RedfishObject): RedfishObject => ({
    "@odata.id": "/redfish/v1/Systems/1",
    Actions: actions,
  });

  it("finds an OEM action directly under Actions.Oem or inside a vendor's object", () => {
    expect(
      driver.target(
        system({
          Oem: { "#Contoso.Reset": { target: "/redfish/v1/Systems/1/Oem/Contoso/Actions/Contoso.Reset" } },
        }),
        "#Contoso.Reset",
      ),
    ).toBe("/redfish/v1/Systems/1/Oem/Contoso/Actions/Contoso.Reset");
    const nested = system({
      Oem: {
        Hpe: {
          "#HpeComputerSystemExt.PowerButton": {
            target: "/redfish/v1/Systems/1/Actions/Oem/Hpe/HpeComputerSystemExt.PowerButton",
            "PushType@Redfish.AllowableValues": ["Press", "PressAndHold"],
          },
        },
      },
    });
    expect(driver.target(nested, "#HpeComputerSystemExt.PowerButton")).toBe(
      "/redfish/v1/Systems/1/Actions/Oem/Hpe/HpeComputerSystemExt.PowerButton",
    );
    return expect(driver.values(nested, "#HpeComputerSystemExt.PowerButton", "PushType")).resolves.toEqual([
      "Press",
      "PressAndHold",
    ]);
  });

  it("prefers the standard action over an OEM one of the same name, and ignores OEM entries without a target", () => {
    const both = system({
      "#ComputerSystem.Reset": { target: "/standard" },
      Oem: { "#ComputerSystem.Reset": { target: "/oem" } },
    });
    expect(driver.target(both, "#ComputerSystem.Reset")).toBe("/standard");
    expect(
      driver.target(system({ Oem: { Vendor: { "#X.Y": { note: "no target" } } } }), "#X.Y"),
    ).toBeUndefined();
    expect(driver.target(system({ Oem: "garbage" }), "#X.Y")).toBeUndefined();
    expect(driver.target({ "@odata.id": "/redfish/v1/Systems/1" }, "#X.Y")).toBeUndefined();
  });
});

describe("RedfishStandard DPU-first boot order on boot options that name no MAC", () => {
  const macless = (): BootOrderInfo => ({
    order: ["Boot0000", "Boot0001"],
    options: [
      toBootOptionInfo({
        Id: "Boot0000",
        BootOptionReference: "Boot0000",
        DisplayName: "Windows Boot Manager",
      }),
      toBootOptionInfo({
        Id: "Boot0001",
        BootOptionReference: "Boot0001",
        DisplayName: "UEFI PXEv4 (NIC 1)",
      }),
    ],
  });

  it("says it is not supported, and why, for both setting and checking it", async () => {
    const driver = new Offline(macless());
    const set = await driver.setBootOrderDpuFirst("02:c0:ff:ee:00:01").catch((error: unknown) => error);
    expect(set).toBeInstanceOf(NotSupportedError);
    expect(isNotSupported(set)).toBe(true);
    expect((set as Error).message).toBe(
      "boot order DPU first is not supported: no boot option names a MAC; cannot put the DPU first by MAC",
    );
    await expect(driver.isBootOrderDpuFirst("02:c0:ff:ee:00:01")).rejects.toSatisfy(isNotSupported);
    await expect(driver.machineSetupStatus({ bootInterfaceMac: "02:c0:ff:ee:00:01" })).rejects.toSatisfy(
      isNotSupported,
    );
  });

  it("still reports an option that is missing when the options do name MACs, or none is listed yet", async () => {
    const named = new Offline({
      order: ["Boot0002"],
      options: [
        toBootOptionInfo({
          Id: "Boot0002",
          BootOptionReference: "Boot0002",
          DisplayName: "PXE (MAC:02005E100001)",
        }),
      ],
    });
    await expect(named.setBootOrderDpuFirst("02:c0:ff:ee:00:01")).rejects.toBeInstanceOf(
      BootOptionNotFoundError,
    );
    await expect(new Offline().setBootOrderDpuFirst("02:c0:ff:ee:00:01")).rejects.toBeInstanceOf(
      BootOptionNotFoundError,
    );
    await expect(named.setBootOrderDpuFirst("02:00:5e:10:00:01")).resolves.toBeUndefined();
    await expect(named.isBootOrderDpuFirst("02:00:5e:10:00:01")).resolves.toBe(true);
  });
});
