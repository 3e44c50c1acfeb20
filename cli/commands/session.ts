/**
 * `hs session list | show <id> | dir [id] | turns <id> | rewind <id> <turn> |
 * fork <id> [turn] | export [id] | import <files…>`: the sessions of this workspace (`HARNESS_SESSIONS`, a trusted
 * `.harness/sessions`, else this workspace's group in `$HARNESS_HOME/sessions`:
 * core/session/groups.ts); `list --all` lists every workspace's. A rewind restores a
 * session's messages and session-scope pack states to a turn's record and
 * keeps everything after it under `<session>/rewound/` (`--undo` puts it
 * back); project and global states are never rolled back. A fork copies a
 * session as it stood at a turn into a new one. `export [id]` writes a session (the latest by default) as one
 * archive and `import <files…>` verifies each whole and adds it as a new session
 * (docs/fleet.md "Collecting sessions").
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { resolve } from "../../core/early/mod.ts";
import { atomicWriteSync, HarnessError, resolvePaths } from "../../core/base/mod.ts";
import {
  archiveFileName,
  forkSession,
  formatTokens,
  rewindSession,
  Session,
  Sessions,
  sessionTurns,
  type StoredSession,
  undoRewind,
} from "../../core/session/mod.ts";
import type { FrontEnd } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";
import { colorEnabled, rewoundText, sanitizeForTerminal as safe, styles } from "../view/mod.ts";

/** `hs session list`: this workspace's sessions (or every one's), newest first. */
function listSessions(cli: CliContext, all: boolean, limitText: string): number {
  const p = new Sessions(resolvePaths(cli.env, cli.cwd));
  const limit = Number.parseInt(limitText, 10) || 20;
  return sessionList(p.list(all).slice(0, limit), all, p.dir, cli);
}

/**
 * `hs session list` in its plain forms (`--all`, `-n N`, `--limit N`, `--limit=N`) without
 * commander: the exit status, or undefined for anything else (commander parses it, with its
 * errors and help). The same output as the registered command.
 */
export function quick(args: readonly string[], cli: CliContext): number | undefined {
  if (args[0] !== "list") return undefined;
  let all = false;
  let limit = "20";
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    if (a === "--all") all = true;
    else if ((a === "-n" || a === "--limit") && i + 1 < args.length && /^\d+$/.test(args[i + 1])) {
      limit = args[++i];
    } else if (/^--limit=\d+$/.test(a)) limit = a.slice("--limit=".length);
    else return undefined;
  }
  return listSessions(cli, all, limit);
}

/** Registers `hs session`. */
export function register(program: Command, ctx: CommandContext): void {
  const cli = ctx.cli;
  // no harness: the sessions of the paths alone
  const sessions = () => new Sessions(resolvePaths(cli.env, cli.cwd));
  const session = program.command("session").description(
    "list and inspect sessions; export and import them as archives",
  );
  session.command("list").description("list this workspace's sessions, newest first")
    .option("-n, --limit <n>", "how many", "20")
    .option("--all", "every workspace's sessions, each with its workspace")
    .action((o) => {
      ctx.done(listSessions(cli, o.all === true, o.limit));
    });
  session.command("show")
    .description("print a session's messages, then its context budget and usage")
    .argument("<id>")
    .action(async (id) => {
      const dir = sessions().dirOf(id);
      await ctx.run({}, async (h) => {
        const code = sessionShow(dir, cli);
        cli.stdout(await budgetLines(h, dir, cli));
        return code;
      });
    });
  session.command("dir").description("print a session's directory (latest by default)")
    .argument("[id]")
    .action((id) => {
      const sid = id ?? sessions().list()[0]?.id;
      if (!sid) throw new HarnessError("no sessions yet", "start one with: hs <message>");
      cli.stdout(sessions().dirOf(sid) + "\n");
      ctx.done(0);
    });
  session.command("turns").description("list a session's turns (what rewind and fork take)")
    .argument("<id>")
    .action((id) => {
      ctx.done(turnList(sessions().dirOf(id), cli));
    });
  session.command("rewind")
    .description(
      "restore a session's messages and session states to the end of a turn (0: the start); " +
        "what follows is kept under <session>/rewound/",
    )
    .argument("<id>")
    .argument("[turn]", "the turn to stand at (default: the one before the last)")
    .option("--undo", "undo the latest rewind (when nothing happened since)")
    .action((id, turn, o) => {
      const dir = sessions().dirOf(id);
      if (o.undo) {
        const r = undoRewind(dir);
        cli.stdout(`${id}: the rewind is undone; the session stands at turn ${r.turn} again\n`);
        ctx.done(0);
        return;
      }
      const t = turn === undefined
        ? Math.max(0, (sessionTurns(dir).at(-1)?.turn ?? 0) - 1)
        : turnNumber(turn);
      cli.stdout(rewoundText(id, rewindSession(dir, t)));
      ctx.done(0);
    });
  session.command("fork").description("copy a session as it stood at a turn into a new session")
    .argument("<id>")
    .argument("[turn]", "the turn (default: the last)")
    .action((id, turn) => {
      const dir = sessions().dirOf(id);
      const t = turn === undefined ? (sessionTurns(dir).at(-1)?.turn ?? 0) : turnNumber(turn);
      const s = forkSession(dir, t, sessions().dir);
      cli.stdout(`${s.id}\n`);
      cli.stderr(`forked ${id} at turn ${t}: resume it with: hs ${s.id} <message>\n`);
      ctx.done(0);
    });
  registerArchive(session, ctx, sessions);
}

/** `hs session export <id>` and `hs session import <file>`. */
function registerArchive(session: Command, ctx: CommandContext, sessions: () => Sessions): void {
  const cli = ctx.cli;
  session.command("export")
    .description("write a session as one archive file (every file with its SHA-256)")
    .argument("[id]", "the session, an id or a directory (default: this workspace's latest)")
    .option(
      "-o, --output <file>",
      "where to write it (- for stdout; default: <id>.hs-session.json)",
    )
    .action(async (id, o) => {
      const sid = id ?? sessions().list()[0]?.id;
      if (!sid) throw new HarnessError("no sessions yet", "start one with: hs <message>");
      const a = await sessions().exportText(sid);
      const out = o.output ?? archiveFileName(a.id);
      if (out === "-") cli.stdout(a.text);
      else atomicWriteSync(resolve(cli.cwd, out), a.text);
      cli.stderr(
        `exported ${a.id} (${a.files} files)${out === "-" ? "" : ` to ${safe(out)}`}: ` +
          `import it with: hs session import ${out === "-" ? "<file>" : safe(out)}\n`,
      );
      ctx.done(0);
    });
  session.command("import")
    .description("add sessions from archives, each verified whole first (- reads stdin)")
    .argument("<files...>")
    .option("--as <id>", "import it under this id instead of the archive's (one file only)")
    .action(async (files, o) => {
      if (o.as !== undefined && files.length > 1) {
        throw new HarnessError(
          "--as names one session: give one file",
          "drop --as or the other files",
          2,
        );
      }
      for (const file of files) {
        const text = file === "-"
          ? await new Response(Deno.stdin.readable).text()
          : readArchive(resolve(cli.cwd, file));
        const r = await sessions().importText(text, file === "-" ? "stdin" : file, o.as);
        cli.stdout(`${r.id}\n`);
        cli.stderr(
          `imported ${r.id} into ${
            safe(r.dir)
          }: review it with hs web or hs session show ${r.id}\n`,
        );
      }
      ctx.done(0);
    });
}

function readArchive(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    throw new HarnessError(
      `cannot read ${path}: ${(err as Error).message}`,
      "name a file hs session export wrote",
    );
  }
}

function turnNumber(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    throw new HarnessError(
      `"${text}" is not a turn number`,
      "list the turns: hs session turns <id>",
    );
  }
  return n;
}

function turnList(dir: string, cli: CliContext): number {
  const turns = sessionTurns(dir);
  if (turns.length === 0) cli.stdout("no turns yet\n");
  for (const t of turns) {
    const logs = Object.entries(t.logs).map(([p, r]) => `${p}@${r}`).join(" ");
    cli.stdout(
      `turn ${String(t.turn).padStart(3)}  ${t.at || "(derived)"}  ${
        String(t.messages.length).padStart(4)
      } files${logs ? `  ${logs}` : ""}\n`,
    );
  }
  return 0;
}

function sessionList(refs: StoredSession[], all: boolean, where: string, cli: CliContext): number {
  for (const ref of refs) {
    const place = all ? `  ${ref.cwd || "?"}` : "";
    try {
      const s = Session.open(ref.dir);
      const m = s.messages().find((x) => x.role === "user");
      const first = m && m.role === "user" ? m.text.split("\n")[0].slice(0, 60) : "";
      cli.stdout(
        safe(
          `${ref.id}${place}  ${String(s.count).padStart(4)} msgs  ${
            s.conf.provider || "-"
          }  ${first}`,
        ) + "\n",
      );
    } catch {
      cli.stdout(safe(`${ref.id}${place}  (unreadable)`) + "\n");
    }
  }
  if (refs.length === 0) {
    cli.stdout(all ? "no sessions yet\n" : `no sessions in ${safe(where)}\n`);
  }
  return 0;
}

/**
 * Prints a session. What models, tools and users wrote is shown with its
 * control characters made visible (the files keep them).
 */
function sessionShow(dir: string, cli: CliContext): number {
  const s = Session.open(dir);
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  cli.stdout(
    st.dim(
      safe(`session ${s.id}  provider=${s.conf.provider} model=${s.conf.model} cwd=${s.conf.cwd}`) +
        "\n",
    ),
  );
  for (const e of s.entries()) {
    const m = e.message;
    const pad = (n: number) => String(n).padStart(4, "0");
    // compacted messages stay on disk: shown, marked with the summary that replaced them
    const mark = e.compacted !== undefined ? st.dim(` (compacted into ${pad(e.compacted)})`) : "";
    if (e.summarizes) {
      const [a, b] = e.summarizes;
      cli.stdout(
        `\n${st.bold(`summary of ${pad(a)}-${pad(b)}`)}\n${
          m.role === "user" ? safe(m.text) : ""
        }\n`,
      );
    } else if (m.role === "user") cli.stdout(`\n${st.bold("user")}${mark}\n${safe(m.text)}\n`);
    else if (m.role === "assistant") {
      cli.stdout(`\n${st.bold("assistant")}${mark}\n`);
      for (const b of m.blocks) {
        if (b.type === "text") cli.stdout(safe(b.text) + "\n");
        else if (b.type === "thinking") cli.stdout(st.dim(`thinking: ${safe(b.text)}\n`));
        else {
          cli.stdout(`${st.cyan("●")} ${safe(b.name)} ${st.dim(safe(JSON.stringify(b.input)))}\n`);
        }
      }
    } else {
      const ok = m.error ? st.red("✗") : st.green("✓");
      cli.stdout(`${ok}${mark} ${st.dim(safe(m.text.split("\n").slice(0, 3).join("\n  ")))}\n`);
    }
  }
  return 0;
}

/**
 * The budget of the session's next request (its own provider and model: tokens against the
 * window) and the usage recorded in its message files, compacted ones included.
 */
async function budgetLines(h: FrontEnd, dir: string, cli: CliContext): Promise<string> {
  const st = styles(colorEnabled(cli.stdoutIsTerminal));
  // the REPL's room (and the harness it renders) loads for this view only, not for `session list`
  const { sessionUsage, statusText } = await import("../repl/mod.ts");
  const s = Session.open(dir);
  let out = "\n";
  try {
    const r = await h.runs.contextReport({
      session: dir,
      provider: s.conf.provider || undefined,
      model: s.conf.model || undefined,
    });
    out += `${st.bold("budget")}  ${statusText(r)}\n`;
  } catch (err) {
    out += `${st.bold("budget")}  ${st.dim(`unknown: ${safe((err as Error).message)}`)}\n`;
  }
  for (const row of sessionUsage(s.entries()).values()) {
    const u = row.usage;
    out +=
      `${st.bold("usage")}   ${
        safe(`${row.provider || "?"} · ${row.model || "?"}`)
      }: ${row.requests} ` +
      `request${row.requests === 1 ? "" : "s"}, in ${formatTokens(u.input_tokens)}, out ${
        formatTokens(u.output_tokens)
      }, cache read ${formatTokens(u.cache_read_input_tokens ?? 0)}, cache write ${
        formatTokens(u.cache_creation_input_tokens ?? 0)
      }\n`;
  }
  return out;
}
