import { describe, expect, it } from "vitest";
import { formatMode, modeProblem, privateModeFix } from "./fileModes.js";

describe("modeProblem", () => {
  it.each([
    [0o600, undefined],
    [0o400, undefined],
    [0o700, undefined],
    [0o100600, undefined],
    [0o644, "readable by group and others"],
    [0o100644, "readable by group and others"],
    [0o640, "readable by group"],
    [0o604, "readable by others"],
    [0o660, "readable and writable by group"],
    [0o666, "readable and writable by group and others"],
    [0o620, "writable by group"],
    [0o642, "readable by group, writable by others"],
    [0o755, "readable by group and others"],
    [0o711, "accessible by group and others"],
    [0o701, "accessible by others"],
  ])("mode %o → %s", (mode, problem) => {
    expect(modeProblem(mode)).toBe(problem);
  });
});

describe("formatMode and privateModeFix", () => {
  it.each([
    [0o100644, "0644"],
    [0o40755, "0755"],
    [0o600, "0600"],
    [0o7, "0007"],
  ])("formatMode(%o) = %s", (mode, text) => {
    expect(formatMode(mode)).toBe(text);
  });

  it("chmods files to 600 and directories to 700", () => {
    expect(privateModeFix("a/key", "file")).toBe("chmod 600 a/key");
    expect(privateModeFix("a/dir", "directory")).toBe("chmod 700 a/dir");
  });
});
