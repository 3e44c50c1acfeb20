/**
 * REPL commands of sessions and packs: `/turns`, `/rewind [turn]`,
 * `/fork [turn]`, `/commands`, and every pack command (`/goal`, `/plan`, …)
 * rendered as numbered choices whose leaves run session verbs.
 *
 * A rewind here also rolls back what this process holds in memory: the
 * session's loaded states are read again and the private states of the
 * main agent's bots go back to the turn's record.
 *
 * @module
 */
import { askLine } from "../prompts/mod.ts";
import type { FrontEnd, SessionRef } from "../../core/mod.ts";
import { forkSession, rewindSession, sessionTurns } from "../../core/session/mod.ts";
import type { CliContext } from "../base/mod.ts";
import {
  rewoundText,
  runPackCommand,
  sanitizeForTerminal as safe,
  type Styles,
} from "../view/mod.ts";

/** Help lines of these commands. */
export const REPL_COMMANDS_HELP = `/turns           the session's turns
/rewind [turn]   back to the end of a turn (default: the one before the last); kept aside
/fork [turn]     go on in a copy of the session as it stood at a turn
/commands        the packs' commands (/goal, /plan, …)`;

/** What the REPL shares with these commands. */
export interface ReplCommandState {
  /** The current session id (undefined before the first message). */
  session?: string;
}

/** What a command asks the REPL to do next. */
export interface ReplCommandResult {
  handled: boolean;
  /** Send this as the next user message (a pack command's `message` leaf). */
  message?: string;
}

function turnArg(arg: string | undefined, fallback: number): number | undefined {
  if (arg === undefined || arg === "") return fallback;
  const n = Number(arg);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Handles `/turns`, `/rewind`, `/fork`, `/commands` and pack commands; false for others. */
export async function replCommand(
  h: FrontEnd,
  cli: CliContext,
  st: Styles,
  line: string,
  state: ReplCommandState,
  ask: (q: string) => Promise<string | undefined> = askLine,
): Promise<ReplCommandResult> {
  const [head, ...rest] = line.slice(1).split(/\s+/);
  const arg = rest.join(" ");
  const dir = state.session ? h.sessions.placeOf(state.session) : undefined;
  switch (head) {
    case "turns": {
      if (!dir) cli.stdout("no session yet\n");
      else {
        for (const t of sessionTurns(dir)) {
          cli.stdout(`turn ${t.turn}  ${st.dim(`${t.messages.length} files`)}\n`);
        }
      }
      return { handled: true };
    }
    case "rewind": {
      if (!dir) {
        cli.stdout("no session yet\n");
        return { handled: true };
      }
      const last = sessionTurns(dir).at(-1)?.turn ?? 0;
      const t = turnArg(rest[0], Math.max(0, last - 1));
      if (t === undefined) {
        cli.stdout(st.yellow(`/rewind takes a turn number (0–${last})\n`));
        return { handled: true };
      }
      const r = rewindSession(dir, t);
      h.packs.rewound(dir, r.record.private);
      cli.stdout(rewoundText(state.session!, r));
      return { handled: true };
    }
    case "fork": {
      if (!dir) {
        cli.stdout("no session yet\n");
        return { handled: true };
      }
      const last = sessionTurns(dir).at(-1)?.turn ?? 0;
      const t = turnArg(rest[0], last);
      if (t === undefined) {
        cli.stdout(st.yellow(`/fork takes a turn number (0–${last})\n`));
        return { handled: true };
      }
      const s = forkSession(dir, t);
      cli.stdout(`forked at turn ${t}: now in ${s.id}\n`);
      state.session = s.id;
      return { handled: true };
    }
    case "commands": {
      const { commands, problems } = h.packs.commands();
      if (commands.length === 0) cli.stdout("no pack commands\n");
      for (const c of commands) cli.stdout(`/${safe(c.name)}  ${st.dim(safe(c.pack))}\n`);
      for (const p of problems) cli.stdout(st.yellow(`${safe(p)}\n`));
      return { handled: true };
    }
  }
  if (!h.packs.commands().commands.some((c) => c.name === head)) return { handled: false };
  const session = (): SessionRef | undefined =>
    state.session ? { id: state.session, dir: h.sessions.placeOf(state.session) } : undefined;
  const r = await runPackCommand(h, head, arg, {
    out: cli.stdout,
    st,
    ask,
    session,
    ensureSession: () => {
      const s = h.sessions.create({ model: "", provider: "" });
      state.session = s.id;
      return { id: s.id, dir: s.dir };
    },
  });
  return { handled: true, message: r.message };
}
