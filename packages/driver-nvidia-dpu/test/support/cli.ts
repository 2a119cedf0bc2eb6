import { type CliRun, runCliInMemory, runCliJson } from "@racksmith/cli";
import { PACKAGE_DIR } from "./paths.js";

/** Runs `racksmith` in-process, from the package folder unless told otherwise. */
export const cli = (argv: string[], cwd: string = PACKAGE_DIR): Promise<CliRun> => runCliInMemory(argv, cwd);

export const cliJson = <T = unknown>(argv: string[], cwd: string = PACKAGE_DIR): Promise<T> =>
  runCliJson<T>(argv, cwd);
