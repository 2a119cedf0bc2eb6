import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildFullProgram } from "../src/commands/program.js";
import { checkCommand, docsProblems, documentedCommands } from "./support/docsCheck.js";
import { memoryIo } from "./support/runCliForTest.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SKIP = new Set(["node_modules", ".git", ".changeset", ".turbo", "dist", ".racksmith"]);

/** The repository's own markdown: READMEs, ARCHITECTURE, docs/ (changelogs record the past, not the CLI). */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") && entry.name !== "CHANGELOG.md" ? [path] : [];
  });
}

const program = await buildFullProgram(memoryIo(ROOT));

describe("the docs name only commands and flags the CLI has", () => {
  const documents = markdownFiles(ROOT).map((path) => ({
    file: relative(ROOT, path),
    markdown: readFileSync(path, "utf8"),
  }));

  it("every `racksmith …` in the README and the packages' docs exists", () => {
    const problems = docsProblems(program, documents).map(
      (p) => `${p.file}:${p.line} ${p.text}: ${p.problem}`,
    );
    expect(problems).toEqual([]);
  });

  it("reads the README's commands (so the check above has something to check)", () => {
    const readme = documents.find((d) => d.file === "README.md");
    const commands = documentedCommands("README.md", readme?.markdown ?? "").map((c) => c.text);
    expect(commands).toEqual(expect.arrayContaining([expect.stringMatching(/^racksmith machine list/)]));
    expect(commands.length).toBeGreaterThan(10);
  });

  it.each([
    ["racksmith machine frobnicate", /racksmith machine has no command frobnicate/],
    ["racksmith frobnicate --now", /racksmith has no command frobnicate/],
    ["racksmith serve --no-such-flag", /racksmith serve has no option --no-such-flag/],
    ["racksmith redfish --address http://x --user root explore", /racksmith redfish has no option --user/],
    ["racksmith simulate --hosts 8 --until ready --fast", /racksmith simulate has no option --fast/],
  ])("finds what is wrong in %s", (text, problem) => {
    expect(checkCommand(program, text)).toMatch(problem);
  });

  it.each([
    "racksmith machine show <host id> --history",
    "racksmith redfish --address http://127.0.0.1:8000 --username root --password racksmith explore",
    "racksmith serve [--config FILE] [--database-url URL] [--data-dir DIR]",
    "racksmith mockup serve path/to/mockup --port 8443 --tls --auth session --faults faults.json",
    "racksmith help simulate",
  ])("accepts %s", (text) => {
    expect(checkCommand(program, text)).toBeUndefined();
  });

  it("the end-to-end package's README names every one of its test files", () => {
    const readme = readFileSync(join(ROOT, "packages/e2e/README.md"), "utf8");
    const files = readdirSync(join(ROOT, "packages/e2e/test")).filter((name) => name.endsWith(".test.ts"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it("finds commands in fenced blocks and inline code, up to a comment or a pipe", () => {
    const markdown = [
      "Run `racksmith machine list --json` or:",
      "```sh",
      "$ npx racksmith serve --http :8080   # comment",
      "racksmith machine list | jq .",
      "echo racksmith is not a command here",
      "```",
    ].join("\n");
    expect(documentedCommands("x.md", markdown).map((c) => [c.line, c.text])).toEqual([
      [1, "racksmith machine list --json"],
      [3, "racksmith serve --http :8080"],
      [4, "racksmith machine list"],
    ]);
  });
});
