/**
 * `hs packs state | call | propose | command` — pack states and commands
 * from the command line (seed 000 §5, §8):
 *
 * - `state <pack>`: a state's revision and value;
 * - `call <pack> <method> [json]`: the session verb `plugin/method` (every
 *   method granted, host-only actions not; `--call-id`, `--revision`);
 * - `propose <pack> <json-action>`: an action with host authority — the
 *   person at the terminal may propose host-only actions;
 * - `command <name> [text…]`: evaluates a pack command and shows its view;
 *   `--pick 2` (or `2.1`) performs that row's leaf with the text as composer.
 *
 * `--scope` is session (default; `--session <id>`), project or global.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { type FrontEnd, HarnessError, type Json, type SessionRef } from "../../../core/mod.ts";
import type { CommandContext } from "../../harness/mod.ts";
import {
  colorEnabled,
  jsonForTerminal,
  renderResult,
  runPackCommand,
  sanitizeForTerminal as safe,
  styles,
} from "../../view/mod.ts";

type Scope = "session" | "project" | "global";

function scopeOf(s: string | undefined): Scope {
  const scope = s ?? "session";
  if (scope !== "session" && scope !== "project" && scope !== "global") {
    throw new HarnessError(`--scope must be session, project or global (got ${scope})`);
  }
  return scope;
}

function sessionOf(h: FrontEnd, id: string | undefined): SessionRef | undefined {
  if (!id) return undefined;
  const s = h.sessions.open(id);
  return { id: s.id, dir: s.dir };
}

function parseJson(text: string, what: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new HarnessError(`${what} is not JSON: ${text}`, `e.g. '{"text":"…"}'`);
  }
}

function int(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new HarnessError(`${what} must be a whole number`);
  return n;
}

/** Registers the state and command subcommands of `hs packs`. */
export function registerStateCommands(packs: Command, ctx: CommandContext): void {
  const cli = ctx.cli;
  const SCOPE = ["--scope <scope>", "session (default), project or global"] as const;
  const SESSION = ["--session <id>", "the session of a session-scope state"] as const;
  const TRUST = ["--trust-workspace", "include this workspace's packs"] as const;

  packs.command("state").description("show a pack state: its revision and value")
    .argument("<pack>")
    .option(...SCOPE).option(...SESSION).option(...TRUST)
    .option("--json", "print JSON")
    .action(async (pack, o) => {
      await ctx.run(o, async (h) => {
        const scope = scopeOf(o.scope);
        const s = await h.packs.state(
          pack,
          scope,
          sessionOf(h, o.session),
        );
        const v = s.view();
        if (o.json) cli.stdout(jsonForTerminal({ pack, scope, ...v }) + "\n");
        else {
          cli.stdout(
            safe(`${pack} (${scope}) revision ${v.revision}${s.dir ? `  ${s.dir}` : ""}\n`),
          );
          cli.stdout(jsonForTerminal(v.state, 2) + "\n");
        }
        return 0;
      });
    });

  packs.command("call").description(
    "call a method of a pack state (the session verb: every method, no host-only action)",
  )
    .argument("<pack>")
    .argument("<method>")
    .argument("[args]", "the input as JSON", "{}")
    .option(...SCOPE).option(...SESSION).option(...TRUST)
    .option("--call-id <id>", "the same id with the same input returns the recorded result")
    .option("--revision <n>", "the revision observed (a stale one does not overwrite)")
    .action(async (pack, method, args, o) => {
      await ctx.run(o, async (h) => {
        const result = await h.packs.pluginMethod(pack, {
          plugin: pack,
          method,
          scope: scopeOf(o.scope),
          args: parseJson(args, "the input"),
          ...(o.callId !== undefined ? { "call-id": o.callId } : {}),
          ...(o.revision !== undefined ? { revision: int(o.revision, "--revision")! } : {}),
        }, { session: sessionOf(h, o.session) });
        cli.stdout(renderResult(result) + "\n");
        return 0;
      });
    });

  packs.command("propose").description(
    "propose an action with host authority (host-only actions included)",
  )
    .argument("<pack>")
    .argument("<action>", "the action as JSON")
    .option(...SCOPE).option(...SESSION).option(...TRUST)
    .option("--revision <n>", "the revision observed (a stale one does not overwrite)")
    .action(async (pack, action, o) => {
      await ctx.run(o, async (h) => {
        const s = await h.packs.state(
          pack,
          scopeOf(o.scope),
          sessionOf(h, o.session),
        );
        const rev = await s.proposeAsHost(
          [parseJson(action, "the action")],
          int(o.revision, "--revision"),
        );
        cli.stdout(safe(`${pack}: revision ${rev}\n`));
        return 0;
      });
    });

  packs.command("command").description("evaluate a pack command (/name) and show its view")
    .argument("<name>", "the command (without /)")
    .argument("[text...]", "the composer text")
    .option("--session <id>", "the session it works on")
    .option("--pick <path>", "perform this row's leaf (2, or 2.1 for a nested choice)")
    .option("--json", "print the view (and result) as JSON")
    .option("--trust-workspace", "include this workspace's packs")
    .action(async (name, text, o) => {
      await ctx.run(o, async (h) => {
        const st = styles(colorEnabled(cli.stdoutIsTerminal));
        const session = sessionOf(h, o.session);
        const pick = o.pick?.split(".").map((p) => int(p, "--pick")!);
        const name0 = name.replace(/^\//, "");
        if (o.json) {
          const { view } = await h.packs.evaluateCommand(name0, {
            session,
            composer: text.join(" "),
          });
          let result: Json | undefined;
          if (pick) {
            const quiet = { out: () => {}, st, session: () => session };
            result = (await runPackCommand(h, name0, text.join(" "), quiet, pick)).result;
          }
          cli.stdout(jsonForTerminal({ view, ...(pick ? { result } : {}) }) + "\n");
          return 0;
        }
        const r = await runPackCommand(h, name0, text.join(" "), {
          out: cli.stdout,
          st,
          session: () => session,
        }, pick);
        if (r.message !== undefined) cli.stdout(`message for the agent: ${safe(r.message)}\n`);
        if (r.view.type === "choice" && !pick && r.view.rows.length) {
          cli.stdout(st.dim(`(perform a row with --pick <n>)\n`));
        }
        return 0;
      });
    });
}
