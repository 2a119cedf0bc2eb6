import { isRacksmithError } from "@racksmith/core/errors";
import { type Command, CommanderError } from "commander";
import { buildProgram } from "./commands/program.js";
import { ReportedFailure, UsageError } from "./errors.js";
import { type CliIo, processIo } from "./io.js";

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Runs the CLI and returns its exit code: 0 ok, 1 failure, 2 usage error. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  // Only the command argv names is loaded: `racksmith --version` and `--help` load no command module.
  const program = await buildProgram(io, argv);
  const debug = argv.includes("--debug");
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      ) {
        return EXIT_OK;
      }
      if (error.code === "commander.executeSubCommandAsync") return EXIT_OK;
      const message = error.message.replace(/^error: /, "");
      io.stderr.write(`racksmith: ${message}\n${helpHint(program, argv)}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`racksmith: ${error.message}\n${helpHint(program, argv)}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof ReportedFailure) return EXIT_FAILURE;
    const code = isRacksmithError(error) ? ` [${error.code}]` : "";
    io.stderr.write(`racksmith: ${(error as Error)?.message ?? String(error)}${code}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return EXIT_FAILURE;
  }
}

/** `Run 'racksmith redfish power --help' for usage.`, naming the deepest command the user typed. */
function helpHint(program: Command, argv: readonly string[]): string {
  const path: string[] = [];
  let current = program;
  for (const token of argv) {
    const next = current.commands.find(
      (command) => command.name() === token || command.aliases().includes(token),
    );
    if (next) {
      path.push(next.name());
      current = next;
    }
  }
  return `Run 'racksmith ${path.length ? `${path.join(" ")} ` : ""}--help' for usage.`;
}
