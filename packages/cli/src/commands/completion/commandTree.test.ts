import { Argument, Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { type CompletionCommand, commandsWithPaths, commandTree } from "./commandTree.js";

function sampleProgram(): Command {
  const program = new Command("tool").option("--debug", "print stack traces");
  const fleet = program
    .command("fleet")
    .alias("f")
    .description("fleet commands\nsecond line is not shown")
    .option("-c, --config <file>", "config file")
    .addOption(new Option("--mode <mode>", "how").choices(["fast", "slow"]));
  fleet
    .command("show")
    .argument("<dir>", "mockup directory")
    .addArgument(new Argument("[format]").choices(["json", "table"]))
    .option("--config <name>", "a config name, not a file")
    .option("--level [n]", "optional value");
  fleet.command("tags").argument("<names...>");
  program.command("secret", { hidden: true });
  return program;
}

function child(command: CompletionCommand, name: string): CompletionCommand {
  const found = command.subcommands.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no subcommand ${name} under ${command.name}`);
  return found;
}

describe("commandTree", () => {
  const tree = commandTree(sampleProgram());

  it("lists visible commands with aliases and the first line of their description", () => {
    expect(tree.name).toBe("tool");
    expect(tree.subcommands.map((command) => command.name)).toEqual(["fleet", "help"]);
    const fleet = child(tree, "fleet");
    expect(fleet.aliases).toEqual(["f"]);
    expect(fleet.description).toBe("fleet commands");
    expect(fleet.subcommands.map((command) => command.name)).toEqual(["show", "tags", "help"]);
  });

  it("describes options: spellings, values, choices and file values", () => {
    const fleet = child(tree, "fleet");
    expect(fleet.options.find((option) => option.long === "--config")).toEqual({
      flags: "-c, --config <file>",
      long: "--config",
      short: "-c",
      description: "config file",
      takesValue: true,
      choices: [],
      isPath: true,
      inherited: false,
    });
    expect(fleet.options.find((option) => option.long === "--mode")).toMatchObject({
      takesValue: true,
      choices: ["fast", "slow"],
      isPath: false,
    });
    expect(fleet.options.find((option) => option.long === "--help")).toMatchObject({
      short: "-h",
      takesValue: false,
    });
  });

  it("adds ancestors' options as inherited, letting a command's own option shadow one", () => {
    const show = child(child(tree, "fleet"), "show");
    const byLong = (long: string) => show.options.find((option) => option.long === long);
    expect(byLong("--debug")).toMatchObject({ inherited: true });
    expect(byLong("--mode")).toMatchObject({ inherited: true, choices: ["fast", "slow"] });
    expect(byLong("--config")).toMatchObject({ inherited: false, isPath: false });
    expect(byLong("--level")).toMatchObject({ takesValue: true, inherited: false });
    // fleet still parses -c wherever it appears, so only its shadowed spelling is dropped.
    expect(show.options.find((option) => option.short === "-c")).toMatchObject({
      inherited: true,
      isPath: true,
    });
    expect(show.options.find((option) => option.short === "-c")?.long).toBeUndefined();
    expect(show.options.filter((option) => option.long === "--help")).toHaveLength(1);
  });

  it("describes positional arguments", () => {
    const fleet = child(tree, "fleet");
    expect(child(fleet, "show").arguments).toEqual([
      { name: "dir", variadic: false, choices: [], isPath: true },
      { name: "format", variadic: false, choices: ["json", "table"], isPath: false },
    ]);
    expect(child(fleet, "tags").arguments).toEqual([
      { name: "names", variadic: true, choices: [], isPath: false },
    ]);
  });

  it("lists every command depth-first with its canonical path", () => {
    expect(commandsWithPaths(tree).map(({ path }) => path.join(" "))).toEqual([
      "",
      "fleet",
      "fleet show",
      "fleet tags",
      "fleet help",
      "help",
    ]);
  });
});
