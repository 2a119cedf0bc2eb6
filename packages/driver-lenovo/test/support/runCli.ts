export { type CliRun, runCliInMemory as cli, runCliJson as cliJson } from "@racksmith/cli";
