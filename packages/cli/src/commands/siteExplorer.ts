import type { Command } from "commander";
import type { CliIo } from "../io.js";

/** The commands for site explorer and machines (issue 5). */
export function registerSiteExplorerCommands(_program: Command, _io: CliIo): void {}
