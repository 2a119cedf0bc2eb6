import { Command, type Help } from "commander";
import type { CliIo } from "../io.js";
import { CLI_VERSION } from "../version.js";
import { CATALOGUE, type CatalogueEntry, catalogueEntry } from "./catalogue.js";
import { CatalogueHelp } from "./catalogueHelp.js";

/** The `racksmith` command itself; its help lists the top-level commands from the catalogue. */
class RacksmithProgram extends Command {
  override createHelp(): Help {
    return Object.assign(new CatalogueHelp(), this.configureHelp());
  }
}

/**
 * The command tree `argv` needs: every top-level command named and described (for `--help` and "Did you
 * mean …"), and only the one the command line names defined, so only its module loads.
 */
export async function buildProgram(io: CliIo, argv: readonly string[]): Promise<Command> {
  const named = namedEntry(argv);
  return buildTree(io, named ? [named] : []);
}

/** The whole command tree, every module loaded: what the docs check and `racksmith completion` walk. */
export async function buildFullProgram(io: CliIo): Promise<Command> {
  return buildTree(io, CATALOGUE);
}

/**
 * The first word of the command line that names a top-level command: the command commander will run
 * (`racksmith` has no option that takes a value, so that word is its first operand), or the one after `help`.
 * The help hint of a usage error walks the same words.
 */
function namedEntry(argv: readonly string[]): CatalogueEntry | undefined {
  for (const word of argv) {
    const entry = catalogueEntry(word);
    if (entry) return entry;
  }
  return undefined;
}

async function buildTree(io: CliIo, toDefine: readonly CatalogueEntry[]): Promise<Command> {
  const program = new RacksmithProgram("racksmith")
    .description("Racksmith: bare-metal lifecycle controller — BMC drivers, Redfish mockups and more")
    .version(CLI_VERSION, "-V, --version")
    .option("--debug", "print stack traces on failure")
    .showSuggestionAfterError(true);
  quiet(program, io);
  const commands = CATALOGUE.map((entry) => {
    const command = program.command(entry.name).description(entry.description);
    for (const alias of entry.aliases) command.alias(alias);
    return { entry, command };
  });
  // Loaded together, defined in catalogue order: the tree is the same whichever modules load first.
  const definitions = await Promise.all(toDefine.map(async (entry) => [entry, await entry.load()] as const));
  const defineOf = new Map(definitions);
  for (const { entry, command } of commands) defineOf.get(entry)?.(command, io);
  for (const command of allCommands(program)) quiet(command, io);
  return program;
}

/** Errors become exceptions for runCli; help goes to io.stdout and usage errors are printed by runCli alone. */
function quiet(command: Command, io: CliIo): void {
  command.exitOverride().configureOutput({
    writeOut: (text) => io.stdout.write(text),
    // Usage errors are printed by runCli as one line; commander's own copy would duplicate it.
    writeErr: () => undefined,
    outputError: () => undefined,
  });
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}
