import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

interface BrowseAnswer {
  path: string;
  body: unknown;
}

/** `racksmith nmxm browse <path>`: a read-only raw view of NMX-M through the service (credentials stay there). */
export function defineNmxmCommand(command: Command, io: CliIo): void {
  addServerFlags(
    command
      .command("browse")
      .description("GET an NMX-M resource as NMX-M answers it, e.g. nmx/v1/partitions")
      .argument("<path>"),
  ).action(async (path: string, flags: { server?: string; json?: boolean }) => {
    const answer = await new ServiceClient(flags, io).get<BrowseAnswer>(
      `/api/v1/nmxm/browse?${new URLSearchParams({ path })}`,
    );
    printOutput(
      io,
      { kind: "message", text: JSON.stringify(answer.body, null, 2), json: answer },
      Boolean(flags.json),
    );
  });
}
