import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { MANAGED_HOST_GRAPH } from "@racksmith/server";
import { type Command, Option } from "commander";
import { renderMermaid, renderSvg } from "../diagram/index.js";
import type { CliIo } from "../io.js";

/** `racksmith lifecycle …`: the managed-host lifecycle itself, drawn locally (no service needed). */
export function defineLifecycleCommand(lifecycle: Command, io: CliIo): void {
  lifecycle
    .command("diagram")
    .description("draw the managed-host state graph as Mermaid (for Markdown) or SVG")
    .addOption(
      new Option(
        "--format <format>",
        "mermaid, or svg (default: svg when --out ends in .svg, else mermaid)",
      ).choices(["mermaid", "svg"]),
    )
    .option("--out <file>", "write to this file instead of standard output")
    .action((flags: { format?: "mermaid" | "svg"; out?: string }) => {
      const format = flags.format ?? (flags.out?.toLowerCase().endsWith(".svg") ? "svg" : "mermaid");
      const text = format === "svg" ? renderSvg(MANAGED_HOST_GRAPH) : renderMermaid(MANAGED_HOST_GRAPH);
      if (!flags.out) {
        io.stdout.write(text);
        return;
      }
      const path = resolve(io.cwd, flags.out);
      writeFileSync(path, text);
      io.stdout.write(`wrote ${format} diagram to ${path}\n`);
    });
}
