/**
 * The REPL (default on a terminal): streamed text as it arrives, tool calls
 * with a short result, Ctrl-C cancels the running turn (a second one within
 * two seconds exits), `/help`, `/session`, `/new`, `/quit`, and a history
 * kept in `$HARNESS_HOME/history`.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import type * as Readline from "node:readline/promises";
import { join } from "node:path";
import type { HarnessCore } from "../core/mod.ts";
import { readTextOrUndefined } from "../core/base/mod.ts";
import type { CliContext } from "./context.ts";
import type { CommandContext } from "./command.ts";
import { addAgentFlags } from "./flags.ts";
import { cancelOnInterrupt } from "./interrupt.ts";
import { pluginLines } from "./plugins.ts";
import { colorEnabled, styles, TranscriptRenderer } from "./render.ts";
import { REPL_COMMANDS_HELP, replCommand } from "./repl_commands.ts";

const HELP = `/help            this help
/session         the current session id and directory
/plugins         runtime plugins: state, contributions, failures
/new             start a new session
${REPL_COMMANDS_HELP}
/quit            exit (or Ctrl-D)
Ctrl-C           cancel the running turn; twice at the prompt to exit`;

/** Runs the REPL until /quit or Ctrl-D. */
export async function runRepl(
  h: HarnessCore,
  cli: CliContext,
  opts: { session?: string; provider?: string; model?: string },
): Promise<number> {
  const [readline, { default: process }] = await Promise.all([
    import("node:readline/promises"),
    import("node:process"),
  ]);
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  const historyFile = join(h.paths.home, "history");
  const history = (readTextOrUndefined(historyFile) ?? "").split("\n").filter(Boolean).reverse()
    .slice(0, 500);
  let session = opts.session;
  let lastInterrupt = 0;
  cli.stdout(
    st.dim(`hs — type a message, /help for commands${session ? `, resuming ${session}` : ""}\n`),
  );

  for (;;) {
    const rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: true,
      history,
      historySize: 500,
    } as Readline.ReadLineOptions);
    const interrupted = new Promise<"sigint">((resolve) =>
      rl.once("SIGINT", () => resolve("sigint"))
    );
    const closed = new Promise<"close">((resolve) => rl.once("close", () => resolve("close")));
    const answer = rl.question(st.cyan("› ")).catch(() => undefined);
    const r = await Promise.race([answer, interrupted, closed]);
    rl.close();
    if (r === "close") {
      cli.stdout("\n");
      return 0;
    }
    if (r === "sigint") {
      const now = Date.now();
      if (now - lastInterrupt < 2000) {
        cli.stdout("\n");
        return 0;
      }
      lastInterrupt = now;
      cli.stdout(st.dim("\n(Ctrl-C again to exit)\n"));
      continue;
    }
    let line = (r ?? "").trim();
    if (!line) continue;
    try {
      Deno.mkdirSync(h.paths.home, { recursive: true });
      Deno.writeTextFileSync(historyFile, line.replace(/\n/g, " ") + "\n", { append: true });
    } catch { /* history is best effort */ }
    if (line === "/quit" || line === "/exit") return 0;
    if (line === "/help") {
      cli.stdout(HELP + "\n");
      continue;
    }
    if (line === "/session") {
      cli.stdout(session ? `${session}\n${join(h.paths.sessions, session)}\n` : "no session yet\n");
      continue;
    }
    if (line === "/plugins") {
      cli.stdout(pluginLines(h, colorEnabled(cli.stdoutIsTerminal)).join("\n") + "\n");
      continue;
    }
    if (line === "/new") {
      session = undefined;
      cli.stdout(st.dim("new session on the next message\n"));
      continue;
    }
    if (line.startsWith("/")) {
      // sessions (/turns, /rewind, /fork) and pack commands (/goal, /plan, …)
      const state = { session };
      const extra = await replCommand(h, cli, st, line, state).catch((err) => {
        cli.stdout(st.red(`error: ${(err as Error).message}\n`));
        return { handled: true, message: undefined };
      });
      session = state.session;
      if (!extra.handled) cli.stdout(`unknown command ${line.split(" ")[0]} — /help lists them\n`);
      if (extra.message === undefined) continue;
      line = extra.message;
    }

    const controller = new AbortController();
    const stopListening = cancelOnInterrupt(
      controller,
      () => cli.stdout(st.yellow("\n^C cancelling the turn…\n")),
    );
    const renderer = new TranscriptRenderer(cli.stdout, st);
    try {
      const res = await h.run({
        message: line,
        session,
        provider: opts.provider,
        model: opts.model,
        signal: controller.signal,
        onEvent: (e) => renderer.on(e),
      });
      session = res.sessionId;
      if (res.cancelled) cli.stdout(st.dim("(cancelled; the session is kept)\n"));
      else if (res.error) cli.stdout(st.red(`error: ${res.message}\n`));
    } catch (err) {
      cli.stdout(st.red(`error: ${(err as Error).message}\n`));
    } finally {
      stopListening();
    }
  }
}

/** Registers `hs repl [session-id]`. */
export function register(program: Command, ctx: CommandContext): void {
  addAgentFlags(
    program.command("repl").description("interactive session (the default on a terminal)")
      .argument("[session-id]", "resume this session"),
  ).action(async (id, flags) => {
    await ctx.run(
      { ...flags, interactive: ctx.cli.stdinIsTerminal },
      (h) => runRepl(h, ctx.cli, { session: id, ...flags }),
    );
  });
}
