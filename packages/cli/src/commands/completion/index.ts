import { Argument, type Command } from "commander";
import { UsageError } from "../../errors.js";
import type { CliIo } from "../../io.js";
import { buildFullProgram } from "../program.js";
import { renderBash } from "./bash.js";
import { commandTree } from "./commandTree.js";
import { renderFish } from "./fish.js";
import { renderZsh } from "./zsh.js";

const RENDERERS = { bash: renderBash, zsh: renderZsh, fish: renderFish } as const;
export type CompletionShell = keyof typeof RENDERERS;
export const COMPLETION_SHELLS = Object.keys(RENDERERS) as CompletionShell[];

function isShell(name: string): name is CompletionShell {
  return Object.hasOwn(RENDERERS, name);
}

/** The completion script for `shell`, generated from the commands registered on `program` right now. */
export function completionScript(program: Command, shell: CompletionShell): string {
  return RENDERERS[shell](commandTree(program));
}

const INSTALL_HELP = `
Install:
  bash  source <(racksmith completion bash)          (add it to ~/.bashrc to keep it)
  zsh   racksmith completion zsh > "\${fpath[1]}/_racksmith"   (then start a new shell)
  fish  racksmith completion fish > ~/.config/fish/completions/racksmith.fish

The script is generated from racksmith's own commands, so regenerate it after upgrading.`;

/** `racksmith completion <shell>` (the catalogue names and describes it). */
export function defineCompletionCommand(completion: Command, io: CliIo): void {
  completion
    .addArgument(
      new Argument("<shell>", "the shell to complete in")
        .choices(COMPLETION_SHELLS)
        // Keep the choices for help and completion, but let the action report a wrong shell as a UsageError.
        .argParser((value: string) => value),
    )
    .addHelpText("after", INSTALL_HELP)
    .action(async (shell: string) => {
      if (!isShell(shell))
        throw new UsageError(
          `unknown shell ${JSON.stringify(shell)}: completion scripts are for ${COMPLETION_SHELLS.join(", ")}`,
        );
      // This run loaded only `completion`; the script covers every command, so build the whole tree.
      io.stdout.write(completionScript(await buildFullProgram(io), shell));
    });
}
