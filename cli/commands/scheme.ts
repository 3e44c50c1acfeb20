/**
 * `hs scheme [file]`: the sandboxed Scheme on its own — a file, a REPL on a
 * terminal, or form-by-form evaluation of a pipe (see docs/scheme.md). The command lives in
 * scheme/cli/ (its fast path too); this entry in the command list hands it the arguments when
 * the ordinary path runs.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { HarnessError } from "../../core/base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";

/** Registers `hs scheme`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("scheme").description(
    "run a Scheme file, or a REPL / form-by-form evaluation of stdin",
  )
    .argument("[args...]", "a file, and flags that raise the limits (see: hs scheme --help)")
    .allowUnknownOption(true)
    .helpOption(false)
    .action(async (args) => {
      if (!ctx.cli.scheme) {
        throw new HarnessError("the Scheme runtime is not available in this build");
      }
      ctx.done(await ctx.cli.scheme(args));
    });
}
