import { describe, expect, it } from "vitest";
import { parseServiceMetadata } from "./metadata.js";

const CSDL = `<?xml version="1.0" encoding="UTF-8"?>
<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
  <edmx:Reference Uri="http://redfish.dmtf.org/schemas/v1/ComputerSystem_v1.xml">
    <edmx:Include Namespace="ComputerSystem"/>
    <edmx:Include Namespace="ComputerSystem.v1_20_0"/>
  </edmx:Reference>
  <edmx:Reference Uri="/redfish/v1/Schemas/DellAttributes_v1.xml">
    <edmx:Include Namespace="DellAttributes"/>
    <edmx:Include Namespace="DellAttributes.v1_0_0"/>
  </edmx:Reference>
  <edmx:Reference Uri="/redfish/v1/schema/NvidiaComputerSystem_v1.xml">
    <edmx:Include Namespace="NvidiaComputerSystem"/>
  </edmx:Reference>
  <edmx:Reference Uri="/x"><edmx:Include Namespace="SmcFixedBootOrder"/></edmx:Reference>
  <edmx:Reference Uri="/y"><edmx:Include Namespace="Smcx"/></edmx:Reference>
  <edmx:DataServices><Schema Namespace="Service"/></edmx:DataServices>
</edmx:Edmx>`;

describe("parseServiceMetadata", () => {
  it("lists base namespaces and picks out the vendor ones", () => {
    expect(parseServiceMetadata(CSDL)).toEqual({
      namespaces: ["ComputerSystem", "DellAttributes", "NvidiaComputerSystem", "SmcFixedBootOrder", "Smcx"],
      oemNamespaces: ["DellAttributes", "NvidiaComputerSystem", "SmcFixedBootOrder"],
      oemPrefixes: ["Dell", "Nvidia", "Smc"],
    });
  });

  it("returns undefined for something that is not CSDL", () => {
    expect(parseServiceMetadata("<html><body>login</body></html>")).toBeUndefined();
    expect(parseServiceMetadata("{not xml")).toBeUndefined();
  });
});
