/**
 * The pack commands of a harness, handed their inputs: the commands of the packs (a more
 * local pack's command wins by name, a built-in's name is kept), a command's body evaluated
 * to its view, and its leaves performed (`plugin/method` on the command's own pack's state,
 * `message` to the agent). The types and the parameter parsing are commands.ts.
 *
 * @module
 */
import { basename } from "../early/mod.ts";
import { HarnessError, type Json } from "../base/mod.ts";
import {
  type CommandEvaluator,
  type CommandView,
  type PackCommand,
  pluginMethodParams,
  type SessionAction,
} from "./commands.ts";
import type { PackManifest } from "./manifest.ts";
import { MethodError } from "./state.ts";
import type { SessionRef, StateHost } from "./states.ts";

/** Names REPL built-ins keep (a pack command of that name is reported and not offered). */
export const RESERVED_COMMANDS: ReadonlySet<string> = new Set([
  "help",
  "session",
  "plugins",
  "new",
  "quit",
  "exit",
  "rewind",
  "turns",
  "fork",
  "commands",
]);

/** Where a command runs: the session it reaches and the composer's text. */
export interface CommandPlace {
  /** The session a session-scope state belongs to. */
  session?: SessionRef;
  /** The composer's text. */
  composer?: string;
}

/** The commands of the packs, lowest priority first (a more local pack's command wins by name). */
export function packCommands(
  manifests: (PackManifest | undefined)[],
): { commands: PackCommand[]; problems: string[] } {
  const byName = new Map<string, PackCommand>();
  const problems: string[] = [];
  for (const m of manifests) {
    if (!m) continue;
    for (const file of m.commands) {
      const name = basename(file).replace(/\.scm$/, "");
      if (RESERVED_COMMANDS.has(name)) {
        problems.push(
          `${m.name}: /${name} is a built-in command; the pack's ${file} is not offered`,
        );
        continue;
      }
      const prev = byName.get(name);
      if (prev && prev.pack !== m.name) {
        problems.push(`/${name} of ${m.name} replaces the one of ${prev.pack}`);
      }
      byName.set(name, { name, pack: m.name, file, root: m.root });
    }
  }
  return {
    commands: [...byName.values()].sort((a, b) => a.name < b.name ? -1 : 1),
    problems,
  };
}

/** What {@link evaluatePackCommand} evaluates with. */
export interface CommandInputs {
  /** Evaluates a command's body (absent: this build has none). */
  evaluate?: CommandEvaluator;
  /** The packs' states. */
  states: StateHost;
  /** Writes a line to the harness log. */
  log(line: string): void;
}

/**
 * Evaluates a pack command's body: its view (choice rows and action leaves). Reads through
 * `(rpc 'plugin/method …)` come back as `{ok, result}` or `{ok: #f, error}`.
 */
export async function evaluatePackCommand(
  command: PackCommand,
  place: CommandPlace,
  inputs: CommandInputs,
): Promise<CommandView> {
  const evaluate = inputs.evaluate;
  if (!evaluate) throw new HarnessError("this build has no command evaluator (stdlib-harness)");
  const name = command.name;
  return await evaluate({
    file: command.file,
    root: command.root,
    pack: command.pack,
    name,
    composer: place.composer ?? "",
    log: (t) => inputs.log(`[pack ${command.pack} /${name}] ${t}`),
    rpc: async (op, params): Promise<Json> => {
      try {
        if (op !== "plugin/method") throw new Error(`rpc: unknown session verb '${op}`);
        return {
          ok: true,
          result: await callPluginMethod(inputs.states, command.pack, params, place),
        };
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
    },
  });
}

/**
 * Performs a command's leaf: `plugin/method` calls a method of the command's own pack
 * (every method granted, host-only actions not); `message` asks the agent.
 */
export async function performAction(
  states: StateHost,
  pack: string,
  action: SessionAction,
  place: CommandPlace,
): Promise<{ result?: Json; message?: string }> {
  if (action.op === "plugin/method") {
    return { result: await callPluginMethod(states, pack, action.params, place) };
  }
  if (action.op === "message") {
    const text = typeof action.params.text === "string" ? action.params.text : "";
    const message = [text, place.composer ?? ""].filter((t) => t.trim() !== "").join(" ");
    if (!message) throw new HarnessError("message: nothing to send (give :text or type it)");
    return { message };
  }
  throw new HarnessError(`unknown session verb '${action.op} (known: plugin/method, message)`);
}

/** The `plugin/method` session verb of a command of `pack`. */
export async function callPluginMethod(
  states: StateHost,
  pack: string,
  params: { [k: string]: Json },
  place: CommandPlace,
): Promise<Json> {
  const p = pluginMethodParams(params, pack, place.composer);
  if (p.plugin !== pack) {
    throw new MethodError(
      `plugin/method: a command of ${pack} reaches only its own plugin's state (not ${p.plugin})`,
    );
  }
  const instance = await states.instance(pack, p.scope, place.session);
  return await instance.call(
    { pack, scope: p.scope, methods: "all" },
    { method: p.method, input: p.args, callId: p.callId, revision: p.revision, abi: p.abi },
  );
}
