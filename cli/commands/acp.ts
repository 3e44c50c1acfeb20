/**
 * `hs acp`: the Agent Client Protocol on stdin/stdout, for editors such as Zed (cli/acp/,
 * docs/acp.md).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { type AcpFlags, serveAcp } from "../acp/mod.ts";
import { addRunFlags, type CommandContext } from "../harness/mod.ts";

/** Registers `hs acp`. */
export function register(program: Command, ctx: CommandContext): void {
  (addRunFlags(
    program.command("acp").description(
      "serve the Agent Client Protocol on stdin/stdout (editors such as Zed; see docs/acp.md)",
    ),
  ) as unknown as Command<[], AcpFlags>)
    .action(async (flags) => {
      ctx.done(
        await serveAcp(ctx.cli, flags as AcpFlags, {
          input: Deno.stdin.readable,
          output: Deno.stdout.writable,
        }),
      );
    });
}
