import { describe, expect, it } from "vitest";
import { ExpectedMachinesFileError } from "../errors.js";
import { EXPECTED_MACHINE_CSV_COLUMNS, parseExpectedMachinesCsv } from "./csv.js";
import { parseExpectedMachinesFile } from "./importFile.js";

const HEADER = EXPECTED_MACHINE_CSV_COLUMNS.join(",");

function failure(run: () => unknown): ExpectedMachinesFileError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpectedMachinesFileError);
    return error as ExpectedMachinesFileError;
  }
  throw new Error("expected an ExpectedMachinesFileError");
}

describe("parseExpectedMachinesCsv", () => {
  it("reads every column, leaves empty cells out and remembers each record's line", () => {
    const text = [
      HEADER,
      "aa:bb:cc:dd:ee:01,10.0.0.9,root,pw1,SN-1,DPU-1; DPU-2,nic,dell,rack=r1; row = 7,sku-1",
      "",
      "aa:bb:cc:dd:ee:02,,,,SN-2,,,,,",
    ].join("\r\n");
    expect(parseExpectedMachinesCsv(text)).toEqual({
      machines: [
        {
          bmcMac: "aa:bb:cc:dd:ee:01",
          bmcAddress: "10.0.0.9",
          factoryUsername: "root",
          factoryPassword: "pw1",
          chassisSerial: "SN-1",
          fallbackDpuSerials: ["DPU-1", "DPU-2"],
          dpuMode: "nic",
          driver: "dell",
          labels: { rack: "r1", row: "7" },
          skuId: "sku-1",
        },
        { bmcMac: "aa:bb:cc:dd:ee:02", chassisSerial: "SN-2" },
      ],
      lines: [2, 4],
    });
  });

  it("takes the columns in any order, and quoted cells as written (commas, quotes, spaces, newlines)", () => {
    const text = `chassisSerial,factoryUsername,factoryPassword,bmcMac\n"SN, 1",root," a""b,\nc ",aabbccddee01\nSN-2,root,x,aabbccddee02\n`;
    expect(parseExpectedMachinesCsv(text)).toEqual({
      machines: [
        {
          chassisSerial: "SN, 1",
          factoryUsername: "root",
          factoryPassword: ' a"b,\nc ',
          bmcMac: "aabbccddee01",
        },
        { chassisSerial: "SN-2", factoryUsername: "root", factoryPassword: "x", bmcMac: "aabbccddee02" },
      ],
      lines: [2, 4],
    });
  });

  it.each([
    ["", undefined, "is empty; the first line must be the header"],
    ["bmcMac,chassisSerial,colour\n", 1, 'unknown column "colour" in the header'],
    ["bmcMac,bmcMac,chassisSerial\n", 1, "column bmcMac appears twice"],
    ["bmcMac,driver\n", 1, "the header lacks chassisSerial"],
    ["bmcMac,chassisSerial\naa,bb,cc\n", 2, "3 fields where the header has 2"],
    ['bmcMac,chassisSerial\naa,"SN\n\n', 2, "unterminated quoted field"],
    ['bmcMac,chassisSerial\naa,"SN"x\n', 2, "a closing quote must end its field"],
    ['bmcMac,chassisSerial\naa,S"N\n', 2, "a quote inside an unquoted field"],
    ["bmcMac,chassisSerial,labels\naa,SN,rack\n", 2, 'labels: "rack" is not key=value'],
    ["bmcMac,chassisSerial,labels\naa,SN,=r1\n", 2, 'labels: "=r1" is not key=value'],
  ])("%j fails at line %s: %s", (text, line, problem) => {
    const error = failure(() => parseExpectedMachinesCsv(text, "machines.csv"));
    expect(error.line).toBe(line);
    expect(error.message).toContain(problem);
    expect(error.message).toMatch(
      line === undefined ? /^machines\.csv: / : new RegExp(`^machines\\.csv: line ${line}: `),
    );
    expect(error.code).toBe("expected_machines_file_invalid");
  });

  it("counts lines inside quoted cells when naming a later line", () => {
    const error = failure(() => parseExpectedMachinesCsv('bmcMac,chassisSerial\naa,"multi\nline"\nbb\n'));
    expect(error.line).toBe(4);
  });
});

describe("parseExpectedMachinesFile", () => {
  it.each([
    ["m.json", '[{"bmcMac":"aa"}]', "json"],
    ["m.JSON", '{"machines":[{"bmcMac":"aa"}]}', "json"],
    ["m.csv", "bmcMac,chassisSerial\naa,SN\n", "csv"],
    ["machines", ' \n[{"bmcMac":"aa"}]', "json"],
    ["machines", "bmcMac,chassisSerial\naa,SN\n", "csv"],
  ])("%s is read as %s", (file, text, format) => {
    const parsed = parseExpectedMachinesFile(text, file);
    expect(parsed.format).toBe(format);
    expect(parsed.machines).toHaveLength(1);
  });

  it.each([
    ["m.json", "[{", "is not valid JSON"],
    ["m.json", '{"rows": []}', 'must be a JSON array of expected machines or { "machines": [...] }'],
  ])("%s %j fails: %s", (file, text, problem) => {
    expect(failure(() => parseExpectedMachinesFile(text, file)).message).toContain(problem);
  });
});
