import { describe, expect, it } from "vitest";
import { checkResource } from "./checkResource.js";

describe("checkResource", () => {
  it("is silent for a resource with every relied-on field", () => {
    const system = {
      Id: "1",
      SerialNumber: "J105958B",
      PowerState: "On",
      Boot: {},
      EthernetInterfaces: { "@odata.id": "/redfish/v1/Systems/1/EthernetInterfaces" },
      PCIeDevices: [{ "@odata.id": "/redfish/v1/Chassis/1/PCIeDevices/slot_9" }],
    };
    expect(checkResource("ComputerSystem", "/redfish/v1/Systems/1", system)).toEqual([]);
  });

  it("names the URL and the field, graded by importance", () => {
    const diagnostics = checkResource("ComputerSystem", "/redfish/v1/Systems/1", {
      Id: "1",
      SerialNumber: "   ",
      PowerState: 3,
      EthernetInterfaces: "nope",
    });
    expect(diagnostics).toEqual(
      expect.arrayContaining([
        {
          severity: "error",
          path: "/redfish/v1/Systems/1",
          field: "SerialNumber",
          message: "ComputerSystem field SerialNumber is empty or not a string",
        },
        expect.objectContaining({ severity: "warning", field: "PowerState" }),
        expect.objectContaining({
          severity: "warning",
          field: "EthernetInterfaces",
          message: expect.stringContaining("not a link"),
        }),
        expect.objectContaining({
          severity: "warning",
          field: "Boot",
          message: "ComputerSystem is missing required field Boot",
        }),
      ]),
    );
  });

  it("treats a null critical field as an error", () => {
    const diagnostics = checkResource("PCIeDevice", "/p", {
      Id: "1",
      SerialNumber: null,
      PartNumber: "900-9D3B6",
    });
    expect(diagnostics).toEqual([
      {
        severity: "error",
        path: "/p",
        field: "SerialNumber",
        message: "PCIeDevice field SerialNumber is null",
      },
    ]);
  });
});
