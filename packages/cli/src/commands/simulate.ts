import type { Command } from "commander";
import type { CliIo } from "../io.js";

/** The commands for fleet simulation (issue 5). */
export function registerSimulateCommands(_program: Command, _io: CliIo): void {}
