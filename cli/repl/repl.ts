/**
 * The REPL (default on a terminal): answers rendered as Markdown as they
 * arrive (`--plain`: raw text), tool calls with a short result and a progress
 * line past a second, Ctrl-C cancels the running turn (a second one within two
 * seconds exits), `/help`, `/session`, `/new`, `/quit`, `/clear`, `/init`,
 * `/permissions` and `@path` mentions (repl_habits.ts, mentions.ts), the long-session
 * commands of `repl_commands.ts`, a status line before the prompt, a line
 * editor with multi-line input and Ctrl-R history search, and a history kept
 * in `$HARNESS_HOME/history`.
 *
 * @module
 */
import { join } from "../../core/early/mod.ts";
import type { FrontEnd } from "../../core/mod.ts";
import { readTextOrUndefined } from "../../core/base/mod.ts";
import { cancelOnInterrupt, type CliContext } from "../base/mod.ts";
import { confWarnings, namedProvider, settingsWarnings } from "../harness/mod.ts";
import {
  colorEnabled,
  displayWidth,
  loadMarkdown,
  loadTextWidth,
  pluginLines,
  sanitizeForTerminal,
  type Styles,
  styles,
} from "../view/mod.ts";
import {
  LONG_SESSION_COMMANDS,
  LONG_SESSION_HELP,
  longSessionCommand,
  type ReplState,
  statusLine,
} from "./repl_commands.ts";
import { ReplView } from "./repl_view.ts";
import { readInput, terminalColumns } from "./terminal_input.ts";
import { REPL_COMMANDS_HELP, replCommand } from "./repl_session_commands.ts";
import { HABIT_COMMANDS, habitCommand, HABITS_HELP } from "./repl_habits.ts";
import { attachMentions } from "./mentions.ts";

const HELP = `/help            this help
/session         the current session id and directory
/plugins         runtime plugins: state, contributions, failures
/new             start a new session
${HABITS_HELP}
${LONG_SESSION_HELP}
${REPL_COMMANDS_HELP}
/quit            exit (or Ctrl-D)
Ctrl-C           cancel the running turn; twice at the prompt to exit
Shift-Enter      a new line (also Alt-Enter, Ctrl-J, or \\ before Enter)
Ctrl-R           search the history
@path            attach a file to the message (read through the floor, as read_file)`;

const COMMANDS = [
  "/help",
  "/session",
  "/plugins",
  "/new",
  "/quit",
  ...HABIT_COMMANDS,
  ...LONG_SESSION_COMMANDS,
];

/** History entries: one a line; a multi-line entry as a JSON string. */
function readHistory(text: string): string[] {
  return text.split("\n").filter(Boolean).map((l) => {
    if (!l.startsWith('"')) return l;
    try {
      const v = JSON.parse(l);
      return typeof v === "string" ? v : l;
    } catch {
      return l;
    }
  }).slice(-500);
}

/** Unknown keys of the settings and of the named provider's `.conf`, on stderr. */
async function warnConfig(h: FrontEnd, cli: CliContext, provider?: string): Promise<void> {
  await h.catalog.providers();
  const named = namedProvider(h, provider);
  for (const w of [...settingsWarnings(h), ...(named ? confWarnings(h, named) : [])]) {
    cli.stderr(`hs: warning: ${sanitizeForTerminal(w)}\n`);
  }
}

/** What a typed line sends the model: a command's message, or the line with its mentions. */
async function messageOf(
  line: string,
  env: { h: FrontEnd; cli: CliContext; st: Styles; state: ReplState; markdown: boolean },
): Promise<string | undefined> {
  const { h, cli, st, state, markdown } = env;
  if (line === "/help") {
    cli.stdout(HELP + "\n" + projectCommandHelp(h));
    return undefined;
  }
  if (line === "/session") {
    const session = state.session;
    cli.stdout(session ? `${session}\n${h.sessions.placeOf(session)}\n` : "no session yet\n");
    return undefined;
  }
  if (line === "/plugins") {
    cli.stdout(pluginLines(h, colorEnabled(cli.stdoutIsTerminal)).join("\n") + "\n");
    return undefined;
  }
  if (line === "/new") {
    state.session = undefined;
    cli.stdout(st.dim("new session on the next message\n"));
    return undefined;
  }
  const habit = await habitCommand(line, { h, cli, st, state });
  if (habit.handled) return habit.message;
  if (!line.startsWith("/")) {
    const m = await attachMentions(h, line, state.session);
    if (!m.ok) {
      for (const e of m.errors) cli.stdout(st.red(`${sanitizeForTerminal(e)}\n`));
      cli.stdout(st.dim("the message was not sent (\\@ is a literal @)\n"));
      return undefined;
    }
    for (const a of m.attached) cli.stdout(st.dim(`attached ${sanitizeForTerminal(a.path)}\n`));
    return m.message;
  }
  const view = () => new ReplView(cli.stdout, st, { markdown, width: terminalColumns });
  if (await longSessionCommand(line, { h, cli, st, state, view })) return undefined;
  // sessions (/turns, /rewind, /fork) and pack commands (/goal, /plan, …)
  const extra = await replCommand(h, cli, st, line, state).catch((err) => {
    cli.stdout(st.red(`error: ${sanitizeForTerminal((err as Error).message)}\n`));
    return { handled: true, message: undefined };
  });
  if (extra.handled) return extra.message;
  const project = await projectCommand(h, line, state.session);
  if (project.handled) return project.message;
  cli.stdout(`unknown command ${sanitizeForTerminal(line.split(" ")[0])} — /help lists them\n`);
  return undefined;
}

/** The project's own slash commands (`.claude/commands/<name>.md`) for `/help`. */
function projectCommandHelp(h: FrontEnd): string {
  const list = h.catalog.slashCommands();
  if (list.length === 0) return "";
  const lines = list.map((c) => {
    const head = `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`;
    return sanitizeForTerminal(`${head.padEnd(16)} ${c.description}`);
  });
  return `project commands (.claude/commands):\n${lines.join("\n")}\n`;
}

/** A project slash command: its prompt is the message (its `!` lines ran through the seam). */
async function projectCommand(
  h: FrontEnd,
  line: string,
  session?: string,
): Promise<{ handled: boolean; message?: string }> {
  const m = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m) return { handled: false };
  const message = await h.catalog.expandSlashCommand(m[1], m[2] ?? "", session);
  return message === undefined ? { handled: false } : { handled: true, message };
}

/** Runs the REPL until /quit or Ctrl-D. */
export async function runRepl(
  h: FrontEnd,
  cli: CliContext,
  opts: { session?: string; provider?: string; model?: string; plain?: boolean },
): Promise<number> {
  // a broken foreground pack fails closed: the REPL does not wait for a message it cannot run
  const refused = h.runs.refusal();
  if (refused) throw refused;
  const color = colorEnabled(cli.stdoutIsTerminal);
  const st = styles(color);
  const markdown = color && !opts.plain;
  if (markdown) await loadMarkdown().catch(() => {/* answers stay plain */});
  await loadTextWidth(); // the line editor measures what is typed (string-width: the REPL only)
  const historyFile = join(h.where.home, "history");
  const history = readHistory(readTextOrUndefined(historyFile) ?? "");
  // the session, provider and model the next request uses (/new, /model, /provider change them)
  const state: ReplState = { session: opts.session, provider: opts.provider, model: opts.model };
  let lastInterrupt = 0;
  await warnConfig(h, cli, opts.provider);
  cli.stdout(
    st.dim(
      `hs — type a message, /help for commands${
        state.session ? `, resuming ${state.session}` : ""
      }\n`,
    ),
  );

  for (;;) {
    try {
      cli.stdout(st.dim(`${await statusLine({ h, cli, st, state })}\n`));
    } catch { /* the status line is informative only */ }
    const r = await readInput({
      write: cli.stdout,
      prompt: st.cyan("› "),
      cont: st.dim("· "),
      history,
      commands: COMMANDS,
      widthOf: (s) => displayWidth(s),
    });
    if (r.kind === "eof") {
      cli.stdout("\n");
      return 0;
    }
    if (r.kind === "interrupt") {
      const now = Date.now();
      if (now - lastInterrupt < 2000) {
        cli.stdout("\n");
        return 0;
      }
      lastInterrupt = now;
      cli.stdout(st.dim("\n(Ctrl-C again to exit)\n"));
      continue;
    }
    let line = r.text.trim();
    if (!line) continue;
    if (history.at(-1) !== line) history.push(line);
    try {
      Deno.mkdirSync(h.where.home, { recursive: true });
      const entry = line.includes("\n") ? JSON.stringify(line) : line;
      Deno.writeTextFileSync(historyFile, entry + "\n", { append: true });
    } catch { /* history is best effort */ }
    if (line === "/quit" || line === "/exit") return 0;
    const message = await messageOf(line, { h, cli, st, state, markdown });
    if (message === undefined) continue;
    line = message;

    const controller = new AbortController();
    const stopListening = cancelOnInterrupt(
      controller,
      () => cli.stdout(st.yellow("\n^C cancelling the turn…\n")),
    );
    const renderer = new ReplView(cli.stdout, st, { markdown, width: terminalColumns });
    try {
      const res = await h.runs.run({
        message: line,
        session: state.session,
        provider: state.provider,
        model: state.model,
        signal: controller.signal,
        onEvent: (e) => renderer.on(e),
      });
      state.session = res.sessionId;
      if (res.cancelled) cli.stdout(st.dim("(cancelled; the session is kept)\n"));
      else if (res.error) cli.stdout(st.red(`error: ${sanitizeForTerminal(res.message ?? "")}\n`));
    } catch (err) {
      cli.stdout(st.red(`error: ${sanitizeForTerminal((err as Error).message)}\n`));
    } finally {
      renderer.stop();
      stopListening();
    }
  }
}
