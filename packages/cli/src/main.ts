import { readFileSync } from "node:fs";
import { isRacksmithError } from "@racksmith/core";
import { Command, CommanderError } from "commander";
import { registerCompletionCommand } from "./commands/completion/index.js";
import { registerCredentialCommands } from "./commands/credentials.js";
import { registerDoctorCommand } from "./commands/doctor.js";
import { registerDriverCommands } from "./commands/drivers.js";
import { registerExpectedMachineCommands } from "./commands/expectedMachines.js";
import { registerHealthCommands } from "./commands/health.js";
import { registerIbPartitionCommands } from "./commands/ibPartition.js";
import { registerInstanceCommands } from "./commands/instances.js";
import { registerLifecycleCommands } from "./commands/lifecycle.js";
import { registerMockupCommand } from "./commands/mockup.js";
import { registerMonitorCommand } from "./commands/monitor.js";
import { registerNmxmCommands } from "./commands/nmxm.js";
import { registerNvLinkPartitionCommands } from "./commands/nvlinkPartition.js";
import { registerRedfishCommand } from "./commands/redfish/index.js";
import { registerServeCommands } from "./commands/serve.js";
import { registerSimulateCommands } from "./commands/simulate.js";
import { registerSiteExplorerCommands } from "./commands/siteExplorer.js";
import { registerUfmCommands } from "./commands/ufm.js";
import { ReportedFailure, UsageError } from "./errors.js";
import { type CliIo, processIo } from "./io.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** The whole command tree (exported for the docs test and completion, which walk it). */
export function buildProgram(io: CliIo): Command {
  const program = new Command("racksmith")
    .description("Racksmith: bare-metal lifecycle controller — BMC drivers, Redfish mockups and more")
    .version(version, "-V, --version")
    .option("--debug", "print stack traces on failure")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // Usage errors are printed by runCli as one line; commander's own copy would duplicate it.
      writeErr: () => undefined,
      outputError: () => undefined,
    });
  registerRedfishCommand(program, io);
  registerMockupCommand(program, io);
  registerDriverCommands(program, io);
  registerServeCommands(program, io);
  registerExpectedMachineCommands(program, io);
  registerCredentialCommands(program, io);
  registerSiteExplorerCommands(program, io);
  registerSimulateCommands(program, io);
  registerInstanceCommands(program, io);
  registerLifecycleCommands(program, io);
  registerHealthCommands(program, io);
  registerMonitorCommand(program, io);
  registerIbPartitionCommands(program, io);
  registerUfmCommands(program, io);
  registerNvLinkPartitionCommands(program, io);
  registerNmxmCommands(program, io);
  registerCompletionCommand(program, io);
  registerDoctorCommand(program, io);
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: () => undefined,
      outputError: () => undefined,
    });
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

/** Runs the CLI and returns its exit code: 0 ok, 1 failure, 2 usage error. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = buildProgram(io);
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
