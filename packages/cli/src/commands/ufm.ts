import type { Command } from "commander";
import type { CliIo } from "../io.js";
import { printOutput } from "../output/print.js";
import { addServerFlags, ServiceClient } from "../serviceClient.js";

interface BrowseAnswer {
  path: string;
  status: number;
  body: unknown;
}

/** `racksmith ufm browse <path>`: a read-only raw view of UFM through the service (credentials stay there). */
export function defineUfmCommand(command: Command, io: CliIo): void {
  addServerFlags(
    command
      .command("browse")
      .description("GET a UFM resource as UFM answers it, e.g. /ufmRest/resources/pkeys?guids_data=true")
      .argument("<path>"),
  ).action(async (path: string, flags: { server?: string; json?: boolean }) => {
    const answer = await new ServiceClient(flags, io).get<BrowseAnswer>(
      `/api/v1/ufm/browse?${new URLSearchParams({ path })}`,
    );
    printOutput(
      io,
      { kind: "message", text: JSON.stringify(answer.body, null, 2), json: answer },
      Boolean(flags.json),
    );
  });
}
