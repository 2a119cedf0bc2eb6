import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./support/runCliForTest.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

function installed(shell: string): boolean {
  return spawnSync(shell, ["-c", "exit 0"], { stdio: "ignore" }).status === 0;
}
const hasZsh = installed("zsh");
const hasFish = installed("fish");

let dir = "";
const scripts = {} as Record<Shell, { path: string; text: string }>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "racksmith-completion-"));
  writeFileSync(join(dir, "faults.json"), "[]");
  for (const shell of SHELLS) {
    const run = await cli(["completion", shell]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const path = join(dir, `racksmith.${shell}`);
    writeFileSync(path, run.stdout);
    scripts[shell] = { path, text: run.stdout };
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout;
}

/** COMPREPLY from the generated `_racksmith` for `words` (the last one is being completed), in a clean bash. */
function bashComplete(words: string[]): string[] {
  const body = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _racksmith; printf "%s\\n" "\${COMPREPLY[@]}"`;
  return run("bash", ["--noprofile", "--norc", "-c", body, "bash", scripts.bash.path, ...words])
    .split("\n")
    .filter(Boolean);
}

/** The top-level commands and every subcommand path, read from `--help` output rather than the tree code. */
async function commandPathsFromHelp(path: string[] = []): Promise<string[][]> {
  const help = await cli([...path, "--help"]);
  const section = help.stdout.split(/^Commands:$/m)[1]?.split(/\n\n/)[0] ?? "";
  const names = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)]
    .map((match) => match[1] ?? "")
    .filter((name) => name !== "help");
  const paths: string[][] = [];
  for (const name of names) paths.push([...path, name], ...(await commandPathsFromHelp([...path, name])));
  return paths;
}

describe("racksmith completion", () => {
  it("rejects an unknown shell as a usage error naming the supported ones", async () => {
    const result = await cli(["completion", "powershell"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/unknown shell "powershell".*bash, zsh, fish/);
    expect(result.stderr).toContain("Run 'racksmith completion --help' for usage.");
  });

  it("explains how to install the script for each shell", async () => {
    const help = await cli(["completion", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("source <(racksmith completion bash)");
    expect(help.stdout).toContain(`racksmith completion zsh > "\${fpath[1]}/_racksmith"`);
    expect(help.stdout).toContain("racksmith completion fish > ~/.config/fish/completions/racksmith.fish");
  });
});

describe("bash completion script", () => {
  it.each([
    [["racksmith", "red"], ["redfish"]],
    [["racksmith", "redfish", "--address", "http://x", "ex"], ["explore"]],
    // bash splits `--address=http://x` at '=' (COMP_WORDBREAKS), so the value is two words on.
    [["racksmith", "redfish", "--address", "=", "http://x", "ex"], ["explore"]],
    [
      ["racksmith", "completion", ""],
      ["bash", "zsh", "fish"],
    ],
    [
      ["racksmith", "expected-machine", "add", "--dpu-mode", ""],
      ["dpu", "nic", "no-dpu"],
    ],
    [["racksmith", "mockup", "serve", "--faults", "fa"], ["faults.json"]],
    // A free-text value completes to nothing rather than to subcommands.
    [["racksmith", "redfish", "--address", ""], []],
  ])("completes %j to %j", (words, expected) => {
    expect(bashComplete(words)).toEqual(expected);
  });

  it("offers a command's own options, inherited ones and --help", () => {
    const options = bashComplete(["racksmith", "mockup", "serve", "--"]);
    expect(options).toEqual(expect.arrayContaining(["--port", "--faults", "--help", "--debug"]));
    expect(bashComplete(["racksmith", "redfish", "explore", "--add"])).toEqual(["--address"]);
  });

  it("skips an option's value when finding the command being typed", () => {
    const subcommands = bashComplete(["racksmith", "redfish", "--timeout", "5", ""]);
    expect(subcommands).toEqual(expect.arrayContaining(["explore", "power", "detect"]));
  });

  it("completes every command of the real program, so a new command needs no script change", async () => {
    const paths = await commandPathsFromHelp();
    expect(paths.length).toBeGreaterThan(50);
    const missing = paths.filter((path) => {
      const name = path.at(-1) ?? "";
      return !bashComplete(["racksmith", ...path.slice(0, -1), name]).includes(name);
    });
    expect(missing).toEqual([]);
  });
});

describe("zsh completion script", () => {
  it("is a #compdef script that registers _racksmith when sourced", () => {
    expect(scripts.zsh.text.startsWith("#compdef racksmith\n")).toBe(true);
    expect(scripts.zsh.text).toContain("compdef _racksmith racksmith");
    for (const name of ["redfish", "mockup", "completion"])
      expect(scripts.zsh.text).toContain(`'|${name}') _racksmith_path='${name}' ;;`);
  });

  if (!hasZsh) console.log("zsh is not installed: the zsh script is checked as text only");
  // compsys needs a terminal, so its builtins are stubbed to print what the script offers.
  it.skipIf(!hasZsh)("offers subcommands, options and values when sourced in zsh", () => {
    const stubs = [
      "compdef() { :; }",
      `_describe() { local name=\${@[-1]}; local -a entries; entries=("\${(@P)name}"); print -rl -- "\${(@)entries%%:*}"; }`,
      'compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@"; }',
      "_files() { print -r -- '<files>'; }",
      'source "$RACKSMITH_SCRIPT"',
      `words=(\${(z)RACKSMITH_LINE}); [[ $RACKSMITH_LINE == *" " ]] && words+=(""); CURRENT=$#words`,
      "_racksmith",
    ].join("\n");
    const zshComplete = (line: string) =>
      run("zsh", ["-f", "-c", stubs], { RACKSMITH_SCRIPT: scripts.zsh.path, RACKSMITH_LINE: line })
        .split("\n")
        .filter(Boolean);
    expect(zshComplete("racksmith red")).toContain("redfish");
    expect(zshComplete("racksmith redfish --address http://x ex")).toContain("explore");
    expect(zshComplete("racksmith mockup serve --")).toContain("--port");
    expect(zshComplete("racksmith completion ")).toEqual(["bash", "zsh", "fish"]);
    expect(zshComplete("racksmith mockup serve --faults ")).toEqual(["<files>"]);
  });
});

describe("fish completion script", () => {
  it("has a complete line for every top-level command", async () => {
    const topLevel = (await commandPathsFromHelp()).filter((path) => path.length === 1).map(([name]) => name);
    for (const name of topLevel)
      expect(scripts.fish.text).toContain(`complete -c racksmith -n '__fish_use_subcommand' -a '${name}'`);
    expect(scripts.fish.text).toContain(
      "complete -c racksmith -n '__fish_seen_subcommand_from redfish' -l address -x -d",
    );
  });

  if (!hasFish) console.log("fish is not installed: the fish script is checked as text only");
  it.skipIf(!hasFish)("completes with fish's own complete -C", () => {
    const fishComplete = (line: string) =>
      run("fish", ["--no-config", "-c", 'source $RACKSMITH_SCRIPT; complete -C "$RACKSMITH_LINE"'], {
        RACKSMITH_SCRIPT: scripts.fish.path,
        RACKSMITH_LINE: line,
      })
        .split("\n")
        .filter(Boolean)
        .map((candidate) => candidate.split("\t")[0]);
    expect(fishComplete("racksmith red")).toEqual(["redfish"]);
    expect(fishComplete("racksmith redfish --address http://x ex")).toEqual(["explore"]);
    expect(fishComplete("racksmith mockup serve --po")).toEqual(["--port"]);
    expect(fishComplete("racksmith completion ")).toEqual(["bash", "fish", "zsh"]);
    expect(fishComplete("racksmith mockup serve --faults fa")).toEqual(["faults.json"]);
  });
});
