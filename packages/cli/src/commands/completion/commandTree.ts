import type { Argument, Command, Option } from "commander";

/** An option as a completion script needs it: how it is spelled and what its value completes to. */
export interface CompletionOption {
  flags: string;
  long?: string;
  short?: string;
  description: string;
  takesValue: boolean;
  /** Values from commander's `Option.choices()`; empty when the value is free text. */
  choices: string[];
  /** The value names a file or directory (`<file>`, `<dir>`, `<path>`), so it completes file names. */
  isPath: boolean;
  /** Declared on an ancestor; commander parses it wherever it appears after that ancestor. */
  inherited: boolean;
}

export interface CompletionArgument {
  name: string;
  variadic: boolean;
  choices: string[];
  isPath: boolean;
}

/** One command of the CLI as plain data, so each shell renderer is a pure function of it. */
export interface CompletionCommand {
  name: string;
  aliases: string[];
  description: string;
  /** Every option usable at this command: its own (help included) first, then its ancestors'. */
  options: CompletionOption[];
  arguments: CompletionArgument[];
  subcommands: CompletionCommand[];
}

/** A command with the canonical names leading to it from the program (`[]` for the program). */
export interface CommandAtPath {
  path: string[];
  command: CompletionCommand;
  parent?: CompletionCommand;
}

const PATH_VALUE = /(^|[-_])(file|dir|directory|path)s?$/i;

function valueName(flags: string): string | undefined {
  return /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1]?.replace(/\.\.\.$/, "");
}

function toOption(option: Option, inherited: boolean): CompletionOption {
  const value = valueName(option.flags);
  return {
    flags: option.flags,
    ...(option.long === undefined ? {} : { long: option.long }),
    ...(option.short === undefined ? {} : { short: option.short }),
    description: firstLine(option.description),
    takesValue: option.required || option.optional,
    choices: option.argChoices ? [...option.argChoices] : [],
    isPath: value !== undefined && PATH_VALUE.test(value),
    inherited,
  };
}

function toArgument(argument: Argument): CompletionArgument {
  return {
    name: argument.name(),
    variadic: argument.variadic,
    choices: argument.argChoices ? [...argument.argChoices] : [],
    isPath: PATH_VALUE.test(argument.name()),
  };
}

function firstLine(text: string): string {
  return text.split("\n")[0]?.trim() ?? "";
}

/** The spellings of an option (`-p`, `--port`). */
export function optionSpellings(option: CompletionOption): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

/** An own option shadows the same spelling on an ancestor; the ancestor's other spelling still parses. */
function mergeOptions(own: CompletionOption[], inherited: CompletionOption[]): CompletionOption[] {
  const taken = new Set(own.flatMap(optionSpellings));
  const merged = [...own];
  for (const { short, long, ...rest } of inherited) {
    const free = {
      ...(short !== undefined && !taken.has(short) ? { short } : {}),
      ...(long !== undefined && !taken.has(long) ? { long } : {}),
    };
    if (free.short === undefined && free.long === undefined) continue;
    if (free.short) taken.add(free.short);
    if (free.long) taken.add(free.long);
    merged.push({ ...rest, ...free, inherited: true });
  }
  return merged;
}

function describe(command: Command, inherited: CompletionOption[]): CompletionCommand {
  // commander's Help knows which commands and options are visible, including its implicit help command/option.
  const help = command.createHelp();
  const options = mergeOptions(
    help.visibleOptions(command).map((option) => toOption(option, false)),
    inherited,
  );
  return {
    name: command.name(),
    aliases: [...command.aliases()],
    description: firstLine(command.summary() || command.description()),
    options,
    arguments: command.registeredArguments.map(toArgument),
    subcommands: help.visibleCommands(command).map((child) => describe(child, options)),
  };
}

/** The visible command tree under `program`, read from commander at run time so new commands complete too. */
export function commandTree(program: Command): CompletionCommand {
  return describe(program, []);
}

/** Every command depth-first, the program first, each with the canonical path that reaches it. */
export function commandsWithPaths(root: CompletionCommand): CommandAtPath[] {
  const visit = (command: CompletionCommand, path: string[], parent?: CompletionCommand): CommandAtPath[] => [
    { path, command, ...(parent ? { parent } : {}) },
    ...command.subcommands.flatMap((child) => visit(child, [...path, child.name], command)),
  ];
  return visit(root, []);
}
