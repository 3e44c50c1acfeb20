/**
 * `hs trust [path] [--list]`: trust a workspace's `.harness/` sources (stored
 * in `$HARNESS_HOME/trust.json` with the fingerprints of their control files)
 * and approve the MCP servers of its `.mcp.json` as they are now.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { resolve } from "../../core/early/mod.ts";
import { HarnessError, resolvePaths, statOrUndefined } from "../../core/base/mod.ts";
import { TrustStore } from "../../core/trust/mod.ts";
import { type CommandContext, trustWorkspace } from "../harness/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

/** Registers `hs trust`. */
export function register(program: Command, ctx: CommandContext): void {
  const cli = ctx.cli;
  program.command("trust").description(
    "trust a workspace's .harness/ executables and .mcp.json servers (stored in HARNESS_HOME)",
  )
    .argument("[path]", "workspace directory", ".")
    .option("--list", "list trusted workspaces")
    .action(async (path, o) => {
      const target = resolve(cli.cwd, path);
      const home = resolvePaths(cli.env, cli.cwd).home;
      if (o.list) {
        for (const t of new TrustStore(home).list()) cli.stdout(safe(t) + "\n");
        return ctx.done(0);
      }
      if (!statOrUndefined(target)?.isDirectory) {
        throw new HarnessError(
          `${path} is not a directory`,
          "name the workspace folder to trust: hs trust [path]",
          2,
        );
      }
      const { workspaces, mcp } = await trustWorkspace(home, target);
      // a path names what an archive or a clone named: shown, never performed
      for (const w of workspaces) cli.stdout(`trusted ${safe(w)}\n`);
      for (const s of mcp?.servers ?? []) {
        cli.stdout(`approved MCP server ${safe(s)} of ${safe(mcp!.file)}\n`);
      }
      if (mcp?.problem) {
        cli.stderr(safe(`hs: ${mcp.file}: ${mcp.problem}: no MCP server approved\n`));
      }
      ctx.done(0);
    });
}
