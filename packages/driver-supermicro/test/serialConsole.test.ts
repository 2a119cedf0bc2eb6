import { useDriverMockup } from "@racksmith/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { supermicroMockup } from "./support/mockups.js";

const SYSTEM = "/redfish/v1/Systems/1";
const PORT = "/redfish/v1/Managers/1/SerialInterfaces/1";

describe("serial console (read-only on Supermicro)", () => {
  const bmc = useDriverMockup(
    { beforeAll, afterAll, beforeEach },
    supermicroMockup("sys-821ge-tnhr", { resetPaths: [SYSTEM, PORT] }),
  );

  it("is enabled with SSH console, sessions allowed and the SOL port at 115200 8N1; setup writes nothing", async () => {
    expect(await bmc.driver.serialConsoleStatus()).toEqual({
      state: "enabled",
      message: "enabled: SSH serial console, console sessions allowed, SOL serial port, SOL port defaults",
    });
    await bmc.driver.setupSerialConsole();
    expect(bmc.writes).toEqual([]);
  });

  it("is partial when the SOL port differs from the defaults, and setup says it cannot fix that", async () => {
    await bmc.server.service.merge(PORT, { BitRate: "57600", FlowControl: "Hardware" });
    expect(await bmc.driver.serialConsoleStatus()).toEqual({
      state: "partial",
      message:
        "enabled: SSH serial console, console sessions allowed, SOL serial port; disabled: SOL port defaults (BitRate=57600, FlowControl=Hardware)",
    });
    await expect(bmc.driver.setupSerialConsole()).rejects.toMatchObject({
      code: "serial_console_not_configurable",
      status: "FAILED_PRECONDITION",
    });
    expect(bmc.writes).toEqual([]);
  });

  it("is disabled when SSH console, sessions and the SOL port are all off", async () => {
    await bmc.server.service.merge(SYSTEM, {
      SerialConsole: { MaxConcurrentSessions: 0, SSH: { ServiceEnabled: false } },
    });
    await bmc.server.service.merge(PORT, { InterfaceEnabled: false, BitRate: "9600" });
    expect((await bmc.driver.serialConsoleStatus()).state).toBe("disabled");
  });

  it("is not supported on firmware without SerialConsole on the system", async () => {
    const system = (await bmc.server.service.read(SYSTEM)) ?? {};
    const { SerialConsole: _gone, ...rest } = system;
    bmc.server.service.write(SYSTEM, rest);
    await expect(bmc.driver.serialConsoleStatus()).rejects.toMatchObject({ code: "not_supported" });
    await expect(bmc.driver.setupSerialConsole()).rejects.toMatchObject({ code: "not_supported" });
  });
});
