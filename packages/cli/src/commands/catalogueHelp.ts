import { type Command, Help } from "commander";
import { type CatalogueEntry, catalogueEntry } from "./catalogue.js";

/** `redfish [options]`: what `racksmith --help` lists for an entry, as commander words it for a loaded command. */
export function catalogueTerm(entry: CatalogueEntry): string {
  const names = [entry.name, ...entry.aliases.slice(0, 1)].join("|");
  return entry.synopsis ? `${names} ${entry.synopsis}` : names;
}

/**
 * The program's help: each top-level command's line comes from the catalogue, so `racksmith --help` reads the
 * same whether or not the command's module was loaded.
 */
export class CatalogueHelp extends Help {
  override subcommandTerm(command: Command): string {
    const entry = catalogueEntry(command.name());
    return entry ? catalogueTerm(entry) : super.subcommandTerm(command);
  }
}
