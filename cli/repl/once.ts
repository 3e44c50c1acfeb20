/**
 * One message, headless (`hs agent`, `hs <message…>`, `hs resume ID <message…>`): the
 * message from the words or stdin, the streamed transcript on a terminal, the answer (or JSON,
 * or events) on a pipe; Ctrl-C cancels the turn and keeps the session.
 *
 * @module
 */
import type { FrontEnd, HarnessEvent, RunResult } from "../../core/mod.ts";
import { HarnessError, resolvePaths, statOrUndefined } from "../../core/base/mod.ts";
import { findSessionDir } from "../../core/session/mod.ts";
import { cancelOnInterrupt, type CliContext } from "../base/mod.ts";
import {
  type AgentFlags,
  type CommandContext,
  confWarnings,
  namedProvider,
  settingsWarnings,
} from "../harness/mod.ts";
import {
  colorEnabled,
  jsonForTerminal,
  sanitizeForTerminal,
  styles,
  TranscriptRenderer,
} from "../view/mod.ts";
import { runRepl } from "./repl.ts";

/** Runs one message (a session id first resumes it). */
export async function agentCommand(
  words: string[],
  flags: AgentFlags,
  ctx: CommandContext,
): Promise<void> {
  const cli = ctx.cli;
  const paths = resolvePaths(cli.env, cli.cwd);
  let sessionId: string | undefined;
  if (
    words.length > 0 && /^[\w.-]+$/.test(words[0]) &&
    findSessionDir(paths, words[0])
  ) {
    sessionId = words[0];
    words = words.slice(1);
  }
  let message = words.join(" ");
  if (!message && !cli.stdinIsTerminal) {
    message = (await new Response(Deno.stdin.readable).text()).trim();
  }
  if (!message) {
    if (sessionId && cli.stdinIsTerminal) {
      await ctx.run(
        { ...flags, interactive: true },
        (h) => runRepl(h, cli, { session: sessionId, ...flags }),
      );
      return;
    }
    throw new HarnessError(
      "no message given",
      "usage: hs [session-id] <message…>   or   echo message | hs",
      2,
    );
  }
  await ctx.run(flags, (h) => runOnce(h, cli, message, sessionId, flags));
}

/** One turn with the CLI's output modes; resolves to the exit code. */
async function runOnce(
  h: FrontEnd,
  cli: CliContext,
  message: string,
  sessionId: string | undefined,
  flags: AgentFlags,
): Promise<number> {
  const controller = new AbortController();
  const stopListening = cancelOnInterrupt(
    controller,
    () => cli.stderr("\ncancelling… (Ctrl-C again to quit)\n"),
  );
  const live = !flags.json && !flags.events &&
    (cli.stdoutIsTerminal || flags.transcript === true);
  const renderer = live
    ? new TranscriptRenderer(cli.stdout, styles(colorEnabled(cli.stdoutIsTerminal)))
    : undefined;
  const onEvent = (e: HarnessEvent) => {
    if (flags.events) cli.stdout(jsonForTerminal(e) + "\n");
    renderer?.on(e);
    if (e.type === "session" && !sessionId && !flags.json && !flags.events) {
      cli.stderr(`session: ${e.dir}\n`);
    }
    if (e.type === "retry" && !live && !flags.events) {
      const reason = sanitizeForTerminal(e.reason);
      cli.stderr(`hs: retrying (${reason}) in ${Math.round(e.delayMs / 100) / 10} s\n`);
    }
    if (e.type === "notice" && !live && !flags.events) {
      cli.stderr(`hs: ${sanitizeForTerminal(e.message)}\n`);
    }
  };
  // unknown keys of the configuration this run uses, named before anything else fails
  await h.catalog.providers();
  const named = namedProvider(h, flags.provider);
  const warned = new Set<string>();
  const warn = (lines: string[]) => {
    for (const l of lines) {
      if (!warned.has(l)) cli.stderr(`hs: warning: ${sanitizeForTerminal(l)}\n`);
      warned.add(l);
    }
  };
  warn([...settingsWarnings(h), ...(named ? confWarnings(h, named) : [])]);
  let r: RunResult;
  try {
    r = await h.runs.run({
      message,
      session: sessionId,
      provider: flags.provider,
      model: flags.model,
      bot: flags.bot,
      signal: controller.signal,
      onEvent,
    });
  } finally {
    stopListening();
  }
  if (r.provider && r.provider !== named) warn(confWarnings(h, r.provider));
  if (flags.json) {
    cli.stdout(
      JSON.stringify({
        output: r.output,
        error: r.error ? r.message ?? "error" : null,
        session: r.sessionId,
        session_dir: r.sessionDir,
        provider: r.provider,
        model: r.model,
        usage: r.usage,
      }) + "\n",
    );
  } else if (!live && !flags.events && !r.error && r.output) {
    cli.stdout(r.output.endsWith("\n") ? r.output : r.output + "\n");
  }
  // a file tool that could not work is the harness's failure: never exit 0 over it
  const broken = h.admin.floor?.fileToolsFailure;
  if (broken && !r.error && !r.cancelled) {
    cli.stderr(`hs: error: the file tools could not work: ${sanitizeForTerminal(broken)}\n`);
    return 1;
  }
  if (r.cancelled) {
    cli.stderr(`hs: cancelled; the session is kept: ${r.sessionDir}\n`);
    return 130;
  }
  if (r.error) {
    if (!live) cli.stderr(`hs: error: ${sanitizeForTerminal(r.message ?? "")}\n`);
    if (!statOrUndefined(r.sessionDir)) {
      cli.stderr(
        "hint: no session was kept (the request reached no server); fix it and run again\n",
      );
    } else {
      cli.stderr(`hint: the session is kept and can be resumed: hs ${r.sessionId} <message>\n`);
    }
    return 1;
  }
  return 0;
}
