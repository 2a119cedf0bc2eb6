import { type CommandAtPath, type CompletionCommand, optionSpellings } from "./commandTree.js";

/** `text` as one single-quoted bash/zsh word. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The shell function prefix for a program name (`racksmith` → `_racksmith`). */
export function functionName(program: string): string {
  return `_${program.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/**
 * `case` branches mapping `parent path|typed word` to the child's canonical path; the same text in bash and
 * zsh, so both shells find the deepest command the same way.
 */
export function childBranches(commands: CommandAtPath[], variable: string): string[] {
  return commands.flatMap(({ path, command }) =>
    command.subcommands.flatMap((child) =>
      [child.name, ...child.aliases].map(
        (word) =>
          `    ${quote(`${path.join(" ")}|${word}`)}) ${variable}=${quote([...path, child.name].join(" "))} ;;`,
      ),
    ),
  );
}

/** Space-padded spellings of the options that consume the next word, for a `*" $word "*` test. */
export function valueOptionList(command: CompletionCommand): string {
  const flags = command.options.filter((option) => option.takesValue).flatMap(optionSpellings);
  return ` ${flags.join(" ")} `;
}

export type ValueCompletion = { kind: "choices"; choices: string[] } | { kind: "path" } | { kind: "none" };

function completionOf(target: { choices: string[]; isPath: boolean }): ValueCompletion {
  if (target.choices.length > 0) return { kind: "choices", choices: target.choices };
  return target.isPath ? { kind: "path" } : { kind: "none" };
}

/** A case pattern matching `flag` at command path `path` and at every command below it. */
function atAndBelow(path: string[], flag: string, hasSubcommands: boolean): string {
  if (path.length === 0) return `*${quote(`|${flag}`)}`;
  const at = path.join(" ");
  if (!hasSubcommands) return quote(`${at}|${flag}`);
  return `${quote(`${at}|${flag}`)} | ${quote(`${at} `)}*${quote(`|${flag}`)}`;
}

/**
 * Case patterns for option values, one per declaration: an option completes the same way wherever it is
 * inherited, so it is listed once for its command and everything below; deeper declarations come first, so
 * one that shadows an ancestor's option (even as free text) wins.
 */
export function optionValueCases(commands: CommandAtPath[]): Array<{ key: string; value: ValueCompletion }> {
  const cases = commands.flatMap(({ path, command, parent }) => {
    const parentFlags = new Set(parent?.options.flatMap(optionSpellings) ?? []);
    return command.options
      .filter((option) => option.takesValue && !option.inherited)
      .flatMap((option) => {
        const value = completionOf(option);
        const shadows = optionSpellings(option).some((flag) => parentFlags.has(flag));
        if (value.kind === "none" && !shadows) return [];
        const hasSubcommands = command.subcommands.length > 0;
        return optionSpellings(option).map((flag) => ({
          depth: path.length,
          key: atAndBelow(path, flag, hasSubcommands),
          value,
        }));
      });
  });
  return cases.sort((a, b) => b.depth - a.depth).map(({ key, value }) => ({ key, value }));
}

/**
 * `path|index` case patterns for positional arguments; a trailing variadic argument matches every later
 * index, so earlier free-text arguments get explicit `none` branches that stop it from matching them.
 */
export function argumentCases(commands: CommandAtPath[]): Array<{ key: string; value: ValueCompletion }> {
  return commands.flatMap(({ path, command }) => {
    const prefix = `${path.join(" ")}|`;
    const values = command.arguments.map(completionOf);
    if (values.every((value) => value.kind === "none")) return [];
    const last = command.arguments.at(-1);
    const cases = values.map((value, index) => ({ key: quote(`${prefix}${index}`), value }));
    if (last?.variadic) cases.push({ key: `${quote(prefix)}*`, value: completionOf(last) });
    return cases;
  });
}
