/**
 * `hs version` (also `--version`, `-v`).
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { VERSION, versionLine } from "../../core/base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";

/** The version line. */
export function versionText(): string {
  return `hs ${versionLine(VERSION)}\n`;
}

/** Registers `hs version`. */
export function register(program: Command, ctx: CommandContext): void {
  program.command("version").description("print the version").action(() => {
    ctx.cli.stdout(versionText());
    ctx.done(0);
  });
}
