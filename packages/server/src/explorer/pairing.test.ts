import { describe, expect, it } from "vitest";
import { dpuReport, type HostReportSpec, hostReport } from "./__fixtures__/reports.js";
import {
  type DpuEndpoint,
  indexDpusBySerial,
  type PairingOptions,
  type PairingResult,
  pairHost,
} from "./pairing.js";

const BF3 = "900-9D3B6-00CV-AA0";
const BF2 = "MBF2H516A-CEEO";
const GPU = "699-2G520-0200-A00";

function dpu(serial: string, fields: { baseMac?: string; nicMode?: "dpu" | "nic" } = {}): DpuEndpoint {
  return {
    address: `dpu-${serial.trim()}`,
    bmcMac: "AA:00:00:00:00:01",
    report: dpuReport({ serial, baseMac: "B8:3F:D2:00:00:01", nicMode: "dpu", ...fields }),
  };
}

interface Case {
  name: string;
  host: HostReportSpec;
  expected?: { dpuMode?: "dpu" | "nic" | "no-dpu"; fallbackDpuSerials?: string[] };
  dpus: DpuEndpoint[];
  options?: PairingOptions;
  result: Partial<PairingResult> & { attached?: string[]; primary?: string };
}

const CASES: Case[] = [
  {
    name: "pairs the DPU whose serial is on a BlueField PCIe device",
    host: {
      pcie: [
        { partNumber: BF3, serial: "MT1" },
        { partNumber: GPU, serial: "GPU1" },
      ],
    },
    dpus: [dpu("MT1"), dpu("MT9")],
    result: { status: "paired", attached: ["MT1"], primary: "MT1", nicModeSerials: [] },
  },
  {
    name: "trims serials on both sides",
    host: { pcie: [{ partNumber: BF2, serial: "MT1   " }] },
    dpus: [dpu("  MT1")],
    result: { status: "paired", attached: ["MT1"], primary: "MT1" },
  },
  {
    name: "falls back to the chassis network adapters when no PCIe device is a BlueField",
    host: { pcie: [{ partNumber: GPU, serial: "GPU1" }], adapters: [{ partNumber: BF3, serial: "MT2" }] },
    dpus: [dpu("MT2")],
    result: { status: "paired", attached: ["MT2"] },
  },
  {
    name: "ignores adapters that are not BlueFields",
    host: { adapters: [{ partNumber: "P10115-001", serial: "RSBCM1" }] },
    dpus: [dpu("RSBCM1")],
    result: { status: "rejected", code: "no_dpu_found" },
  },
  {
    name: "waits for a BlueField whose DPU BMC is not explored yet",
    host: {
      pcie: [
        { partNumber: BF3, serial: "MT1" },
        { partNumber: BF3, serial: "MT2" },
      ],
    },
    dpus: [dpu("MT1")],
    result: { status: "waiting", code: "dpu_not_explored" },
  },
  {
    name: "uses the expected machine's fallback serials when the host shows no BlueField",
    host: { pcie: [{ partNumber: GPU, serial: "GPU1" }] },
    expected: { fallbackDpuSerials: [" MT7 "] },
    dpus: [dpu("MT7")],
    result: { status: "paired", attached: ["MT7"] },
  },
  {
    name: "uses the fallback serials when the host's BlueField serial matches no DPU",
    host: { pcie: [{ partNumber: BF3, serial: "" }] },
    expected: { fallbackDpuSerials: ["MT7"] },
    dpus: [dpu("MT7")],
    result: { status: "paired", attached: ["MT7"] },
  },
  {
    name: "replaces an unmatched PCIe serial with the fallback serials",
    host: { pcie: [{ partNumber: BF3, serial: "MT-UNKNOWN" }] },
    expected: { fallbackDpuSerials: ["MT7"] },
    dpus: [dpu("MT7")],
    result: { status: "paired", attached: ["MT7"] },
  },
  {
    name: "waits when the fallback serials are not explored either",
    host: {},
    expected: { fallbackDpuSerials: ["MT7", "MT8"] },
    dpus: [dpu("MT7")],
    result: { status: "waiting", code: "dpu_not_explored" },
  },
  {
    name: "leaves a NIC-mode DPU out and attaches the DPU-mode one",
    host: {
      pcie: [
        { partNumber: BF3, serial: "MT1" },
        { partNumber: BF3, serial: "MT2" },
      ],
    },
    dpus: [dpu("MT1", { nicMode: "nic" }), dpu("MT2")],
    result: { status: "paired", attached: ["MT2"], primary: "MT2", nicModeSerials: ["MT1"] },
  },
  {
    name: "rejects a host whose only DPU is in NIC mode",
    host: { pcie: [{ partNumber: BF3, serial: "MT1" }] },
    dpus: [dpu("MT1", { nicMode: "nic" })],
    result: { status: "rejected", code: "dpu_in_nic_mode" },
  },
  {
    name: "ingests a host whose only DPU is in NIC mode when zero-DPU hosts are allowed",
    host: { pcie: [{ partNumber: BF3, serial: "MT1" }] },
    dpus: [dpu("MT1", { nicMode: "nic" })],
    options: { allowZeroDpuHosts: true },
    result: { status: "paired", attached: [], nicModeSerials: ["MT1"] },
  },
  {
    name: "attaches nothing when the expected machine says its BlueFields are NICs",
    host: { pcie: [{ partNumber: BF3, serial: "MT1" }] },
    expected: { dpuMode: "nic" },
    dpus: [dpu("MT1")],
    result: { status: "paired", attached: [], nicModeSerials: ["MT1"] },
  },
  {
    name: "attaches nothing to a host expected without DPU",
    host: { pcie: [{ partNumber: BF3, serial: "MT1" }] },
    expected: { dpuMode: "no-dpu" },
    dpus: [dpu("MT1")],
    result: { status: "paired", attached: [], nicModeSerials: [] },
  },
  {
    name: "waits while a DPU does not tell its mode",
    host: { pcie: [{ partNumber: BF3, serial: "MT1" }] },
    dpus: [{ ...dpu("MT1"), report: dpuReport({ serial: "MT1", baseMac: "B8:3F:D2:00:00:01" }) }],
    result: { status: "waiting", code: "dpu_mode_unknown" },
  },
  {
    name: "waits while a DPU does not report its host-facing MAC",
    host: { pcie: [{ partNumber: BF3, serial: "MT1" }] },
    dpus: [{ ...dpu("MT1"), report: dpuReport({ serial: "MT1", nicMode: "dpu" }) }],
    result: { status: "waiting", code: "dpu_without_host_mac" },
  },
  {
    name: "rejects a DPU-mode host without any BlueField or fallback serial",
    host: { pcie: [{ partNumber: GPU, serial: "GPU1" }] },
    dpus: [dpu("MT1")],
    result: { status: "rejected", code: "no_dpu_found" },
  },
  {
    name: "ingests a host without BlueField when zero-DPU hosts are allowed",
    host: {},
    dpus: [],
    options: { allowZeroDpuHosts: true },
    result: { status: "paired", attached: [] },
  },
  {
    name: "recognises extra part-number prefixes from the config",
    host: { pcie: [{ partNumber: "ACME-BF-1", serial: "MT1" }] },
    dpus: [dpu("MT1")],
    options: { bluefieldPartNumbers: ["acme-bf"] },
    result: { status: "paired", attached: ["MT1"] },
  },
  {
    name: "picks as primary the DPU on the host NIC with the numerically lowest UEFI path",
    host: {
      pcie: [
        { partNumber: BF3, serial: "MT-A" },
        { partNumber: BF3, serial: "MT-B" },
      ],
      nics: [
        { mac: "B8:3F:D2:00:00:0A", path: "PciRoot(0x6)/Pci(0x10,0x0)/Pci(0x0,0x0)" },
        { mac: "b8-3f-d2-00-00-0b", path: "PciRoot(0x6)/Pci(0x2,0x0)/Pci(0x0,0x0)" },
      ],
    },
    dpus: [dpu("MT-A", { baseMac: "b83fd200000a" }), dpu("MT-B", { baseMac: "B8:3F:D2:00:00:0B" })],
    result: { status: "paired", attached: ["MT-A", "MT-B"], primary: "MT-B" },
  },
  {
    name: "prefers a DPU on a NIC with a UEFI path over one without",
    host: {
      pcie: [
        { partNumber: BF3, serial: "MT-A" },
        { partNumber: BF3, serial: "MT-B" },
      ],
      nics: [{ mac: "B8:3F:D2:00:00:0B", path: "PciRoot(0x20)/Pci(0x1,0x0)" }],
    },
    dpus: [dpu("MT-A", { baseMac: "B8:3F:D2:00:00:0A" }), dpu("MT-B", { baseMac: "B8:3F:D2:00:00:0B" })],
    result: { status: "paired", primary: "MT-B" },
  },
  {
    name: "falls back to the lowest lower-cased serial without UEFI paths",
    host: {
      pcie: [
        { partNumber: BF3, serial: "mtB" },
        { partNumber: BF3, serial: "MTa" },
      ],
    },
    dpus: [dpu("mtB", { baseMac: "B8:3F:D2:00:00:0B" }), dpu("MTa", { baseMac: "B8:3F:D2:00:00:0A" })],
    result: { status: "paired", primary: "MTa" },
  },
];

describe("pairHost", () => {
  it.each(CASES)("$name", ({ host, expected, dpus, options, result }) => {
    const pairing = pairHost(
      {
        address: "host",
        report: hostReport(host),
        expected: expected && {
          dpuMode: expected.dpuMode ?? "dpu",
          fallbackDpuSerials: expected.fallbackDpuSerials ?? [],
        },
      },
      indexDpusBySerial(dpus),
      options,
    );
    const { attached, primary, ...rest } = result;
    expect(pairing).toMatchObject(rest);
    if (pairing.status !== "paired") {
      expect(pairing.reason.length).toBeGreaterThan(10);
      return;
    }
    if (attached) expect(pairing.dpus.map((d) => d.serial).sort()).toEqual(attached);
    if (primary) expect(pairing.dpus.filter((d) => d.primary).map((d) => d.serial)).toEqual([primary]);
    for (const paired of pairing.dpus) expect(paired.hostFacingMac).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
  });

  it("names the missing DPU serials in the waiting reason", () => {
    const pairing = pairHost(
      {
        address: "h",
        report: hostReport({ pcie: [{ partNumber: BF3, serial: "MT404" }] }),
        expected: undefined,
      },
      indexDpusBySerial([]),
    );
    expect(pairing).toMatchObject({ status: "waiting", reason: expect.stringContaining("MT404") });
  });

  it("indexes DPUs by trimmed serial, the first BMC claiming a serial wins", () => {
    const first = dpu("MT1 ");
    const index = indexDpusBySerial([first, { ...dpu("MT1"), address: "other" }, dpu("MT2")]);
    expect([...index.keys()]).toEqual(["MT1", "MT2"]);
    expect(index.get("MT1")?.address).toBe(first.address);
  });
});
