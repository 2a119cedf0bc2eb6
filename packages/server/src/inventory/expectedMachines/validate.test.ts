import { describe, expect, it } from "vitest";
import { checkExpectedMachines } from "./batch.js";
import { parseBmcAddress } from "./bmcAddress.js";
import { validateExpectedMachine } from "./validate.js";

const good = { bmcMac: "b8-3f-d2-90-95-82", chassisSerial: " SN-1 " };

describe("validateExpectedMachine", () => {
  it("normalises a minimal row and fills the defaults", () => {
    expect(validateExpectedMachine(good)).toEqual({
      ok: true,
      machine: {
        bmcMac: "B8:3F:D2:90:95:82",
        bmcAddress: null,
        bmcAddressIpv4: null,
        factoryUsername: null,
        factoryPassword: undefined,
        chassisSerial: "SN-1",
        fallbackDpuSerials: [],
        dpuMode: "dpu",
        driver: null,
        labels: {},
        skuId: null,
      },
    });
  });

  it("keeps every optional field, normalised", () => {
    const checked = validateExpectedMachine({
      ...good,
      bmcAddress: " 10.0.0.7:8443 ",
      factoryUsername: " root ",
      factoryPassword: " pass word ",
      fallbackDpuSerials: [" DPU-1", "DPU-2 "],
      dpuMode: "nic",
      driver: "@racksmith/driver-dell",
      labels: { rack: "r1", "topology.racksmith.dev/row": "" },
      skuId: "sku-7",
    });
    expect(checked).toMatchObject({
      ok: true,
      machine: {
        bmcAddress: "10.0.0.7:8443",
        bmcAddressIpv4: 167772167,
        factoryUsername: "root",
        factoryPassword: " pass word ",
        fallbackDpuSerials: ["DPU-1", "DPU-2"],
        dpuMode: "nic",
        driver: "@racksmith/driver-dell",
        labels: { rack: "r1", "topology.racksmith.dev/row": "" },
        skuId: "sku-7",
      },
    });
  });

  it.each([
    [{ chassisSerial: "S" }, "bmcMac", "is required"],
    [{ ...good, bmcMac: "not-a-mac" }, "bmcMac", '"not-a-mac" is not a MAC address'],
    [{ ...good, bmcMac: "00:00:00:00:00:00" }, "bmcMac", "is not a MAC address"],
    [{ ...good, bmcMac: 42 }, "bmcMac", "42 is not a MAC address"],
    [{ bmcMac: good.bmcMac }, "chassisSerial", "is required"],
    [{ ...good, chassisSerial: "" }, "chassisSerial", "must not be empty or blank"],
    [{ ...good, chassisSerial: "   \t" }, "chassisSerial", "must not be empty or blank"],
    [{ ...good, chassisSerial: "SN\u0007" }, "chassisSerial", "must not contain control characters"],
    [{ ...good, chassisSerial: 7 }, "chassisSerial", "must be a string, got 7"],
    [{ ...good, bmcAddress: "http://10.0.0.1" }, "bmcAddress", "without a scheme"],
    [{ ...good, bmcAddress: "10.0.0.256" }, "bmcAddress", '"10.0.0.256" is not an IPv4 address'],
    [{ ...good, bmcAddress: "bmc_1.example" }, "bmcAddress", "is not an IP address or host name"],
    [{ ...good, bmcAddress: "10.0.0.1:70000" }, "bmcAddress", 'port "70000" is not a number from 1 to 65535'],
    [{ ...good, bmcAddress: "" }, "bmcAddress", "must not be empty"],
    [{ ...good, dpuMode: "smart" }, "dpuMode", 'must be dpu, nic, no-dpu; got "smart"'],
    [{ ...good, factoryPassword: "secret" }, "factoryPassword", "needs factoryUsername"],
    [
      { ...good, factoryUsername: "root", factoryPassword: "" },
      "factoryPassword",
      "must be a non-empty string",
    ],
    [{ ...good, fallbackDpuSerials: "DPU-1" }, "fallbackDpuSerials", "must be a list of serials"],
    [{ ...good, fallbackDpuSerials: ["DPU-1", " "] }, "fallbackDpuSerials[1]", "must not be empty or blank"],
    [
      { ...good, fallbackDpuSerials: ["DPU-1", "DPU-1 "] },
      "fallbackDpuSerials[1]",
      '"DPU-1" is listed twice',
    ],
    [{ ...good, labels: ["a"] }, "labels", "must be an object of strings"],
    [{ ...good, labels: { "=x": "1" } }, "labels.=x", "key must be"],
    [{ ...good, labels: { rack: 1 } }, "labels.rack", "value must be a printable string"],
    [{ ...good, driver: "dell driver" }, "driver", "has characters not allowed here"],
    [{ ...good, skuId: "  " }, "skuId", "must not be empty or blank"],
    [{ ...good, chasisSerial: "typo" }, "chasisSerial", "unknown field"],
    ["a string", "machine", "must be an object"],
  ])("rejects %j: %s %s", (row, field, message) => {
    const checked = validateExpectedMachine(row);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const problem = checked.problems.find((p) => p.field === field);
    expect(problem?.message, JSON.stringify(checked.problems)).toContain(message);
  });

  it("reports every problem of a row at once and keeps the readable MAC", () => {
    const checked = validateExpectedMachine({ bmcMac: "aabbccddeeff", chassisSerial: "", dpuMode: "x" });
    expect(checked).toMatchObject({ ok: false, bmcMac: "AA:BB:CC:DD:EE:FF" });
    expect(checked.ok ? [] : checked.problems.map((p) => p.field)).toEqual(["chassisSerial", "dpuMode"]);
  });

  it("never puts a factory password in a message", () => {
    const checked = validateExpectedMachine({ ...good, factoryPassword: "Sup3r-Secret" });
    expect(JSON.stringify(checked)).not.toContain("Sup3r-Secret");
  });
});

describe("parseBmcAddress", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1", 167772161],
    ["10.0.0.1:443", "10.0.0.1:443", 167772161],
    ["BMC-1.Example.com", "bmc-1.example.com", undefined],
    ["bmc-1:8443", "bmc-1:8443", undefined],
    ["fe80::1", "fe80::1", undefined],
    ["[fe80::1]:443", "[fe80::1]:443", undefined],
  ])("%s → %s", (raw, address, ipv4) => {
    expect(parseBmcAddress(raw)).toEqual({ address, ipv4 });
  });

  it.each([
    ["[10.0.0.1]", "is not an IPv6 address"],
    ["-bmc", "is not an IP address or host name"],
    ["bmc:", 'port "" is not a number'],
    ["https://bmc", "without a scheme"],
  ])("rejects %s", (raw, reason) => {
    expect(parseBmcAddress(raw)).toContain(reason);
  });
});

describe("checkExpectedMachines", () => {
  it("rejects every row whose MAC another row uses, naming the others, and keeps the good rows", () => {
    const batch = checkExpectedMachines([
      { bmcMac: "aa:bb:cc:dd:ee:01", chassisSerial: "A" },
      { bmcMac: "AABBCCDDEE01", chassisSerial: "B" },
      { bmcMac: "aa:bb:cc:dd:ee:02", chassisSerial: "C" },
      { bmcMac: "aa:bb:cc:dd:ee:03", chassisSerial: "" },
      { bmcMac: "bad", chassisSerial: "D" },
    ]);
    expect([...batch.valid.keys()]).toEqual([2]);
    expect(batch.results).toEqual([
      {
        index: 0,
        bmcMac: "AA:BB:CC:DD:EE:01",
        ok: false,
        error: { code: "duplicate_bmc_mac", message: "bmcMac: AA:BB:CC:DD:EE:01 is also in machines[1]" },
      },
      {
        index: 1,
        bmcMac: "AA:BB:CC:DD:EE:01",
        ok: false,
        error: { code: "duplicate_bmc_mac", message: "bmcMac: AA:BB:CC:DD:EE:01 is also in machines[0]" },
      },
      { index: 2, bmcMac: "AA:BB:CC:DD:EE:02", ok: true },
      {
        index: 3,
        bmcMac: "AA:BB:CC:DD:EE:03",
        ok: false,
        error: { code: "invalid_expected_machine", message: "chassisSerial: must not be empty or blank" },
      },
      {
        index: 4,
        bmcMac: "",
        ok: false,
        error: { code: "invalid_expected_machine", message: 'bmcMac: "bad" is not a MAC address' },
      },
    ]);
    expect([...batch.named]).toEqual(["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02", "AA:BB:CC:DD:EE:03"]);
  });
});
