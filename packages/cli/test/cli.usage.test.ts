import { describe, expect, it } from "vitest";
import { cli } from "./support/runCliForTest.js";

describe("usage errors exit 2 with one line and a help hint", () => {
  it.each([
    [["frobnicate"], /unknown command 'frobnicate'/, "racksmith --help"],
    [["redfish", "explore"], /--address is required/, "racksmith redfish explore --help"],
    [
      ["redfish", "--address", "http://127.0.0.1:1", "power", "Explode"],
      /power action must be one of On, ForceOff/,
      "racksmith redfish power --help",
    ],
    [
      ["redfish", "--address", "http://127.0.0.1:1", "--auth", "kerberos", "detect"],
      /--auth must be basic, session or none/,
      "racksmith redfish detect --help",
    ],
    [
      ["redfish", "--address", "http://127.0.0.1:1", "--password", "a", "--password-file", "b", "detect"],
      /either --password or --password-file/,
      "racksmith redfish detect --help",
    ],
    [
      ["redfish", "--address", "http://127.0.0.1:1", "--password-file", "/no/such/file", "detect"],
      /--password-file: cannot read \/no\/such\/file: ENOENT/,
      "racksmith redfish detect --help",
    ],
    [
      ["redfish", "--address", "127.0.0.1:8000", "detect"],
      /--address needs a scheme: https:\/\/127\.0\.0\.1:8000 \(a BMC\) or http:\/\/127\.0\.0\.1:8000/,
      "racksmith redfish detect --help",
    ],
    [
      ["redfish", "--address", "ftp://127.0.0.1", "detect"],
      /--address must start with http:\/\/ or https:\/\/, not ftp:\/\//,
      "racksmith redfish detect --help",
    ],
    [["mockup", "serve"], /missing required argument 'dir'/, "racksmith mockup serve --help"],
    [
      ["mockup", "serve", ".", "--auth", "magic"],
      /--auth must be one of none, basic, session/,
      "racksmith mockup serve --help",
    ],
    [
      ["driver", "test", "x"],
      /required option '--mockup <dir>' not specified/,
      "racksmith driver test --help",
    ],
  ])("racksmith %j", async (argv, message, hint) => {
    const run = await cli(argv);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toBe(`Run '${hint}' for usage.`);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it("prints help and exits 0", async () => {
    const run = await cli(["redfish", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("set-boot-order-dpu-first");
  });
});

describe("failures exit 1", () => {
  it("with one clear line naming the error code, and the stack only with --debug", async () => {
    const run = await cli(["redfish", "--address", "http://127.0.0.1:1", "detect"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/cannot reach BMC http:\/\/127\.0\.0\.1:1.*\[redfish_connection_error\]/);
    const debug = await cli(["redfish", "--address", "http://127.0.0.1:1", "detect", "--debug"]);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});
