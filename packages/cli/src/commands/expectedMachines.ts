import type { Command } from "commander";
import type { CliIo } from "../io.js";

/** The commands for expected machines and DHCP discoveries (issue 5). */
export function registerExpectedMachineCommands(_program: Command, _io: CliIo): void {}
