import type { Command, Option } from "commander";

/** A `racksmith …` command line a document names, with where it is. */
export interface DocumentedCommand {
  file: string;
  line: number;
  text: string;
}

/** What a documented command line gets wrong about the CLI. */
export interface DocsProblem extends DocumentedCommand {
  problem: string;
}

// Shell punctuation that ends a command: a comment, a pipe, a chain, a redirect.
const COMMAND_END = /\s(?:#|\|\s|&&|;|>|2>)|`|$/;

/**
 * Every `racksmith …` command in a markdown document: lines of fenced code blocks (after an optional `$ ` or
 * `npx `) and inline code spans that start with `racksmith `.
 */
export function documentedCommands(file: string, markdown: string): DocumentedCommand[] {
  const found: DocumentedCommand[] = [];
  let fenced = false;
  markdown.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (/^\s*```/.test(raw)) {
      fenced = !fenced;
      return;
    }
    const starts = fenced
      ? [...raw.matchAll(/^\s*(?:\$\s+)?(?:npx\s+)?(racksmith\s.*)$/g)]
      : [...raw.matchAll(/`(?:npx\s+)?(racksmith\s[^`]*)`/g)];
    for (const match of starts) {
      const command = match[1] ?? "";
      const end = command.slice("racksmith".length).search(COMMAND_END);
      const text = end < 0 ? command : command.slice(0, "racksmith".length + end);
      found.push({ file, line, text: text.trim() });
    }
  });
  return found;
}

/** Splits a documented line into words, keeping `<host id>`-style placeholders as one word. */
function words(text: string): string[] {
  const tokens = text.replace(/[[\]]/g, " ").match(/<[^>]*>|"[^"]*"|'[^']*'|\S+/g) ?? [];
  return tokens.slice(1).filter((token) => token !== "..." && token !== "…");
}

function findOption(path: readonly Command[], flag: string): Option | undefined {
  for (const command of [...path].reverse()) {
    const option = command.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

const BUILT_IN_FLAGS = new Set(["--help", "-h", "--version", "-V"]);

/**
 * Walks a documented command through the CLI's command tree: every subcommand must exist, and every flag
 * must belong to that command or to one above it. Returns the problem, or undefined when it is all real.
 */
export function checkCommand(program: Command, text: string): string | undefined {
  const path: Command[] = [program];
  const tokens = words(text);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? "";
    const current = path.at(-1) ?? program;
    const name = ["racksmith", ...path.slice(1).map((c) => c.name())].join(" ");
    if (token.startsWith("-") && token.length > 1 && !/^-\d/.test(token)) {
      const flag = token.split("=")[0] ?? token;
      if (BUILT_IN_FLAGS.has(flag)) continue;
      const option = findOption(path, flag) ?? findOption(path, flag.replace(/^--no-/, "--"));
      if (!option) return `${name} has no option ${flag}`;
      const next = tokens[i + 1];
      const takesNext = option.required || (option.optional && next !== undefined && !next.startsWith("-"));
      if (takesNext && !token.includes("=")) i++;
      continue;
    }
    // `racksmith help <command>` is commander's own.
    if (token === "help" && current.commands.length > 0) return undefined;
    const sub = current.commands.find((c) => c.name() === token || c.aliases().includes(token));
    if (sub) {
      path.push(sub);
      continue;
    }
    // A word that is not a subcommand is an argument: only a command that takes arguments has any.
    if (current.registeredArguments.length === 0 && current.commands.length > 0) {
      return `${name} has no command ${token} (it has ${current.commands.map((c) => c.name()).join(", ")})`;
    }
  }
  return undefined;
}

/** The problems of every documented command of the given documents. */
export function docsProblems(
  program: Command,
  documents: ReadonlyArray<{ file: string; markdown: string }>,
): DocsProblem[] {
  return documents.flatMap(({ file, markdown }) =>
    documentedCommands(file, markdown).flatMap((command) => {
      const problem = checkCommand(program, command.text);
      return problem ? [{ ...command, problem }] : [];
    }),
  );
}
