import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Argument, Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { renderBash } from "./bash.js";
import { commandTree } from "./commandTree.js";

const dir = mkdtempSync(join(tmpdir(), "racksmith-bash-completion-"));
mkdirSync(join(dir, "work"));
writeFileSync(join(dir, "work", "notes.txt"), "");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function program(): Command {
  const tool = new Command("tool").option("--config <file>", "config file");
  const fleet = tool.command("fleet").alias("f");
  fleet
    .command("tag")
    .argument("<id>")
    .addArgument(new Argument("<labels...>").choices(["red", "blue"]));
  // Shadows tool's --config as free text, so its value must not complete to files here.
  fleet.command("rename").option("--config <name>", "a config name");
  return tool;
}

const script = join(dir, "tool.bash");
writeFileSync(script, renderBash(commandTree(program())));

/** COMPREPLY after bash completes the last of `words`, run in a clean bash from `work/`. */
function complete(...words: string[]): string[] {
  const run = spawnSync(
    "bash",
    [
      "--noprofile",
      "--norc",
      "-c",
      `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _tool; printf "%s\\n" "\${COMPREPLY[@]}"`,
      "bash",
      script,
      ...words,
    ],
    { cwd: join(dir, "work"), encoding: "utf8" },
  );
  expect(run.stderr).toBe("");
  return run.stdout.split("\n").filter(Boolean);
}

describe("renderBash on a small program", () => {
  it("follows aliases and completes a trailing variadic argument at every position after its start", () => {
    expect(complete("tool", "f", "")).toEqual(["tag", "rename", "help"]);
    expect(complete("tool", "f", "tag", "")).toEqual(["-h", "--help", "--config"]);
    expect(complete("tool", "fleet", "tag", "id-1", "")).toEqual(["red", "blue"]);
    expect(complete("tool", "fleet", "tag", "id-1", "red", "b")).toEqual(["blue"]);
  });

  it("completes an inherited file option with file names unless a command shadows it", () => {
    expect(complete("tool", "fleet", "tag", "--config", "no")).toEqual(["notes.txt"]);
    expect(complete("tool", "fleet", "rename", "--config", "no")).toEqual([]);
  });

  it("treats words after -- as arguments, not options or subcommands", () => {
    expect(complete("tool", "fleet", "tag", "--", "--config", "")).toEqual(["red", "blue"]);
  });
});
