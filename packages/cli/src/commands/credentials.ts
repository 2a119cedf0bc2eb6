import type { Command } from "commander";
import type { CliIo } from "../io.js";

/** The commands for the BMC credential store (issue 5). */
export function registerCredentialCommands(_program: Command, _io: CliIo): void {}
