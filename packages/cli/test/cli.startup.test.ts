// `racksmith --version` and `--help` load no command module, a subcommand loads only its own, and the light
// top-level tree says the same as the full one (issue 19). Behaviour only: which modules load, not how fast.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Command, Help } from "commander";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CATALOGUE } from "../src/commands/catalogue.js";
import { catalogueTerm } from "../src/commands/catalogueHelp.js";
import { buildFullProgram, buildProgram } from "../src/commands/program.js";
import { cli, memoryIo } from "./support/runCliForTest.js";

const CLI_DIR = fileURLToPath(new URL("..", import.meta.url));
const { version } = JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as { version: string };

/** The catalogue commands whose module was asked for since the spies were set. */
function loadedCommands(): string[] {
  return CATALOGUE.filter((entry) => vi.mocked(entry.load).mock.calls.length > 0).map((entry) => entry.name);
}

/** Help text with its wrapping and column padding folded to single spaces. */
function squashed(text: string): string {
  return text.replace(/\s+/g, " ");
}

function topLevel(program: Command): Array<{ name: string; aliases: string[]; description: string }> {
  return program.commands.map((command) => ({
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
  }));
}

describe("runCli loads only the command the command line names", () => {
  beforeEach(() => {
    for (const entry of CATALOGUE) vi.spyOn(entry, "load");
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([["--version"], ["-V"]])("%s prints the version and loads no command", async (flag) => {
    expect(await cli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    expect(loadedCommands()).toEqual([]);
  });

  it.each([["--help"], ["help"]])(
    "%s lists every command with its description, loading none",
    async (flag) => {
      const run = await cli([flag]);
      expect(run.code).toBe(0);
      for (const entry of CATALOGUE) {
        expect(squashed(run.stdout)).toContain(` ${catalogueTerm(entry)} ${entry.description} `);
      }
      expect(loadedCommands()).toEqual([]);
    },
  );

  it("an unknown command is still a usage error with a suggestion, loading none", async () => {
    const run = await cli(["redfsh"]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe(
      "racksmith: unknown command 'redfsh'\n(Did you mean redfish?)\nRun 'racksmith --help' for usage.\n",
    );
    expect(loadedCommands()).toEqual([]);
  });

  it.each([
    [["redfish", "--help"], "redfish", "set-boot-order-dpu-first"],
    [["help", "redfish"], "redfish", "set-boot-order-dpu-first"],
    [["--debug", "db", "migrate", "--help"], "db", "--database-url"],
    [["machine", "--help"], "machine", "force-delete"],
  ])("racksmith %j loads %s alone", async (argv, name, shown) => {
    const run = await cli(argv);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain(shown);
    expect(loadedCommands()).toEqual([name]);
  });

  it("a usage error deep in a command keeps its help hint", async () => {
    const run = await cli(["driver", "test", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\nRun 'racksmith driver test --help' for usage\.\n$/);
    expect(loadedCommands()).toEqual(["driver"]);
  });
});

describe("the light tree and the full tree agree", () => {
  it("on every top-level command's name, aliases and description, in catalogue order", async () => {
    const expected = CATALOGUE.map(({ name, aliases, description }) => ({
      name,
      aliases: [...aliases],
      description,
    }));
    const full = await buildFullProgram(memoryIo());
    const light = await buildProgram(memoryIo(), []);
    expect(topLevel(full)).toEqual(expected);
    expect(topLevel(light)).toEqual(expected);
  });

  it("on `racksmith --help`, whose lines are what commander says of each loaded command", async () => {
    const full = await buildFullProgram(memoryIo());
    const light = await buildProgram(memoryIo(), []);
    expect(light.helpInformation()).toBe(full.helpInformation());
    const commanderTerms = full.commands.map((command) => new Help().subcommandTerm(command));
    expect(commanderTerms).toEqual(CATALOGUE.map(catalogueTerm));
  });
});

describe("the racksmith bin", () => {
  const dir = mkdtempSync(join(tmpdir(), "racksmith-startup-"));
  afterEach(() => rmSync(join(dir, "trace"), { force: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The workspace files (`packages/…`) a `racksmith` process resolves, run from the TypeScript sources. */
  function workspaceModules(argv: string[]): string[] {
    const trace = join(dir, "trace");
    const register = fileURLToPath(new URL("./support/moduleTrace/register.mjs", import.meta.url));
    const run = spawnSync(
      process.execPath,
      ["--conditions=@racksmith/source", "--import", "tsx", "--import", register, "src/bin.ts", ...argv],
      { cwd: CLI_DIR, encoding: "utf8", env: { ...process.env, RACKSMITH_MODULE_TRACE: trace } },
    );
    expect(run).toMatchObject({ status: 0, stderr: "" });
    const urls = readFileSync(trace, "utf8").split("\n");
    return [
      ...new Set(
        urls.filter((url) => url.includes("/packages/")).map((url) => url.replace(/^.*\/packages\//, "")),
      ),
    ];
  }

  // What may load before a command is named: the CLI's own top-level files and core's errors, and of the
  // commands only the files that list them.
  const ENTRY = /^cli\/src\/[^/]+\.ts$|^core\/src\/errors\//;
  const COMMAND_LIST = [
    "cli/src/commands/catalogue.ts",
    "cli/src/commands/catalogueHelp.ts",
    "cli/src/commands/program.ts",
  ];

  it.each([["--version"], ["--help"]])("%s loads the CLI's entry and core's errors, nothing else", (flag) => {
    const modules = workspaceModules([flag]);
    expect(modules).toContain("core/src/errors/index.ts");
    expect(modules.filter((file) => !ENTRY.test(file)).sort()).toEqual(COMMAND_LIST);
  });

  it("redfish --help loads redfish's module and no other command's", () => {
    const commands = workspaceModules(["redfish", "--help"]).filter((file) =>
      file.startsWith("cli/src/commands/"),
    );
    expect(commands).toContain("cli/src/commands/redfish/index.ts");
    const others = commands.filter((file) => !file.startsWith("cli/src/commands/redfish/"));
    expect(others.sort()).toEqual(COMMAND_LIST);
  });
});
