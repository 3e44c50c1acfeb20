/**
 * REPL commands people know from other agents: `/clear` (a new session with
 * the same provider and model), `/init` (write or update AGENTS.md through a
 * normal turn), `/permissions` (the floor's rules and where each came from;
 * `/permissions allow <rule>` answers that rule's asks for this session).
 *
 * @module
 */
import type { FrontEnd } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe, type Styles } from "../view/mod.ts";
import type { ReplState } from "./repl_commands.ts";

/**
 * What `/init` sends the model as the turn's message: inspect the repository and write
 * (or update) AGENTS.md with write_file. AGENTS.md is an agent-extensible path, so the
 * write does not ask; the turn is an ordinary one (the transcript shows each tool call).
 */
export const INIT_INSTRUCTION =
  `Write or update AGENTS.md at the root of this repository: the file an agent reads first.
Inspect the repository first (list it; read README, the build or package files, the CI config,
and a few central source files). Then write AGENTS.md with write_file. It holds, briefly:
- what the project is and how it is laid out (the main folders and what each holds);
- the exact commands to build, type-check, lint, format and test (a single test too);
- the code style and conventions the code actually follows;
- anything an agent must not do or must check before it commits.
If AGENTS.md exists, read it and keep what is still true; fix what is not. Say what you changed.`;

/** Help lines of these commands. */
export const HABITS_HELP =
  `/clear           a new session now, same provider and model (says its id)
/init            write or update AGENTS.md from the repository (a normal turn)
/permissions     the floor's rules (allow/ask/deny) and where each came from
/permissions allow <rule>  answer that rule's asks for this session, e.g. bash(git status)`;

/** The command words (for Tab completion). */
export const HABIT_COMMANDS = ["/clear", "/init", "/permissions"];

/** What a command asks the REPL to do next. */
export interface HabitResult {
  handled: boolean;
  /** Send this as the next user message. */
  message?: string;
}

/** Runs `line` when it is one of these commands. */
export async function habitCommand(
  line: string,
  env: { h: FrontEnd; cli: CliContext; st: Styles; state: ReplState },
): Promise<HabitResult> {
  const [word, ...rest] = line.trim().split(/\s+/);
  const arg = line.trim().slice(word.length).trim();
  switch (word) {
    case "/clear":
      await clear(env);
      return { handled: true };
    case "/init":
      return { handled: true, message: INIT_INSTRUCTION };
    case "/permissions":
      permissions(rest[0] === "allow" ? arg.slice("allow".length).trim() : arg, env, rest[0]);
      return { handled: true };
  }
  return { handled: false };
}

async function clear(env: { h: FrontEnd; cli: CliContext; st: Styles; state: ReplState }) {
  const { h, cli, st, state } = env;
  const r = await h.catalog.resolve(state.provider, state.model);
  const s = h.sessions.create({
    provider: r.provider,
    model: r.model,
  });
  const before = state.session;
  state.session = s.id;
  cli.stdout(
    st.dim(safe(
      `new session ${s.id} (${r.provider} · ${r.model || "default model"})` +
        (before ? `; ${before} is kept (hs resume ${before})` : "") + "\n",
    )),
  );
}

function permissions(
  rule: string,
  env: { h: FrontEnd; cli: CliContext; st: Styles },
  sub: string | undefined,
): void {
  const { h, cli, st } = env;
  const floor = h.admin.floor;
  if (!floor) {
    cli.stdout(st.yellow("no effect floor in this process: every call is allowed\n"));
    return;
  }
  if (sub === undefined) {
    cli.stdout(st.bold("rules (deny wins over ask, ask over allow)\n"));
    for (const r of floor.allRules()) {
      const mark = r.verdict === "deny"
        ? st.red(r.verdict.padEnd(5))
        : r.verdict === "ask"
        ? st.yellow(r.verdict.padEnd(5))
        : st.green(r.verdict.padEnd(5));
      cli.stdout(`  ${mark} ${safe(r.text)}  ${st.dim(`← ${safe(r.source)}`)}\n`);
    }
    cli.stdout(st.dim("the policy (read/write/net/run/env): hs floor\n"));
    return;
  }
  if (sub !== "allow" || !rule) {
    cli.stdout(
      st.yellow("usage: /permissions, or /permissions allow <rule>, e.g. bash(git status)\n"),
    );
    return;
  }
  try {
    const r = floor.allowForSession(rule);
    cli.stdout(
      st.dim(
        safe(`allow ${r.text} for this session: its asks are answered yes (denies still win)\n`),
      ),
    );
  } catch (err) {
    const e = err as Error & { hint?: string };
    cli.stdout(
      st.red(`error: ${safe(e.message)}\n`) + (e.hint ? st.dim(`hint: ${safe(e.hint)}\n`) : ""),
    );
  }
}
