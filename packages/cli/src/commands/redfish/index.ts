import type { Command } from "commander";
import { UsageError } from "../../errors.js";
import type { CliIo } from "../../io.js";
import { printOutput } from "../../output/print.js";
import { type BmcFlags, connect } from "./connect.js";
import { REDFISH_OPERATIONS } from "./operations.js";

/** Connection flags shared by every command that talks to a BMC directly. */
export function addBmcFlags(command: Command): Command {
  return command
    .option("--address <url>", "BMC address (https assumed), e.g. https://10.0.0.5 or http://127.0.0.1:8000")
    .option("--username <name>", "BMC user (default root when a password is given)")
    .option("--password <password>", "BMC password (prefer --password-file or RACKSMITH_BMC_PASSWORD)")
    .option("--password-file <file>", "file holding the BMC password")
    .option("--auth <mode>", "basic, session or none", "basic")
    .option("--insecure", "accept any TLS certificate (self-signed BMCs)")
    .option("--ca-file <file>", "PEM bundle the BMC certificate must chain to")
    .option("--timeout <seconds>", "request timeout");
}

/** `racksmith redfish <operation>`: one BMC, through its driver (the catalogue names and describes it). */
export function defineRedfishCommand(redfish: Command, io: CliIo): void {
  addBmcFlags(redfish)
    .option("--driver <name>", "use this driver instead of detecting one")
    .option("--config <file>", "config file naming the driver plugins (default racksmith.yaml)")
    .option("--json", "print one JSON document");

  for (const operation of REDFISH_OPERATIONS) {
    const sub = redfish.command(operation.name).description(operation.summary);
    for (const arg of operation.args ?? []) sub.argument(arg);
    for (const [flags, description] of operation.options ?? []) sub.option(flags, description);
    sub.action(async (...received: unknown[]) => {
      const command = received.at(-1) as Command;
      const flags = command.optsWithGlobals() as BmcFlags & { json?: boolean };
      const input = { io, args: command.args, options: command.opts() };
      const parsed = operation.parse?.(input);
      if (!flags.address) throw new UsageError("--address is required");
      const connection = await connect(io, flags);
      try {
        const output = await operation.run({ ...input, connection, driver: connection.driver }, parsed);
        printOutput(io, output, Boolean(flags.json));
      } finally {
        await connection.client.close();
      }
    });
  }
}
