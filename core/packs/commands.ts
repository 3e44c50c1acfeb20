/**
 * Pack commands (seed 000 §8): `.scm` files a pack lists in `commands`, shown
 * as host slash-commands (`/goal`, `/plan`) — not model tools. The client
 * evaluates a command's body like the built-in defaults: it yields a view of
 * `harness/choice` rows whose leaves are `(harness/action 'op :params …)`;
 * performing a leaf runs a session verb. `plugin/method` (`:plugin`,
 * `:method`, `:scope`, JSON `:args`, `:field` for the composer text) reaches
 * the command's own pack's state with every method granted — host-only
 * actions are not. `(rpc 'plugin/method …)` reads while the body evaluates.
 *
 * @module
 */
import type { Json } from "../base/mod.ts";
import type { StateScope } from "./state.ts";

/** A command of a pack. */
export interface PackCommand {
  /** The slash name (the file stem). */
  name: string;
  /** The pack's name. */
  pack: string;
  /** Absolute path of the command's `.scm` file. */
  file: string;
  /** Absolute root of the pack. */
  root: string;
}

/** A leaf of a command view: a session verb and its parameters. */
export interface SessionAction {
  /** The session verb to perform. */
  op: string;
  /** The verb's parameters. */
  params: { [k: string]: Json };
}

/** One row of a choice: a label, and a leaf or another choice. */
export interface ChoiceRow {
  /** The row's text. */
  label: string;
  /** Secondary text shown after the label. */
  detail?: string;
  /** The leaf to perform when the row is picked. */
  action?: SessionAction;
  /** A nested choice shown when the row is picked. */
  choice?: ChoiceView;
}

/** A choice: a title and rows. */
export interface ChoiceView {
  /** Discriminant of a choice view. */
  type: "choice";
  /** The choice's heading. */
  title: string;
  /** The rows, in order. */
  rows: ChoiceRow[];
}

/** What a command's body yields: a choice, a leaf to perform at once, or text. */
export type CommandView =
  | ChoiceView
  | { type: "action"; action: SessionAction }
  | { type: "text"; text: string };

/** What evaluating a command gets. */
export interface CommandRequest {
  /** Absolute path of the command's `.scm` file. */
  file: string;
  /** Absolute root of the pack. */
  root: string;
  /** The pack's name. */
  pack: string;
  /** The command's name. */
  name: string;
  /** The composer text (what follows the command on its line). */
  composer: string;
  /** A session verb for reads while the body evaluates (`rpc`): `{ok, result}` or `{ok: false, error}`. */
  rpc(op: string, params: { [k: string]: Json }): Promise<Json>;
  /** Writes a line to the harness log. */
  log(text: string): void;
}

/** Evaluates a command file (supplied by stdlib-harness). */
export type CommandEvaluator = (req: CommandRequest) => Promise<CommandView>;

/** The parameters of `plugin/method`, checked. */
export interface PluginMethodParams {
  /** The pack whose state is called (the command's own pack). */
  plugin: string;
  /** The method to call. */
  method: string;
  /** The state's scope (default `session`). */
  scope: Exclude<StateScope, "private">;
  /** The method's input (`:args`, JSON text or a value). */
  args: Json;
  /** The `:args` key the composer text is put under. */
  field?: string;
  /** `:call-id`: makes the call idempotent. */
  callId?: string;
  /** `:revision`: the revision the caller observed. */
  revision?: number;
  /** `:abi`: the method protocol revision. */
  abi?: number;
}

function str(v: Json | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * Reads `plugin/method` parameters: `:args` is JSON text (an object when parsed; a dict is
 * accepted too), `:field` names the args key the composer text goes to.
 */
export function pluginMethodParams(
  params: { [k: string]: Json },
  pack: string,
  composer: string | undefined,
): PluginMethodParams {
  const known = ["plugin", "method", "scope", "args", "field", "call-id", "revision", "abi"];
  const unknown = Object.keys(params).filter((k) => !known.includes(k));
  if (unknown.length) {
    throw new Error(`plugin/method: unknown parameter ${unknown.map((k) => `:${k}`).join(" ")}`);
  }
  const plugin = str(params.plugin) ?? pack;
  const method = str(params.method);
  if (!method) throw new Error("plugin/method: :method is required");
  const scope = str(params.scope) ?? "session";
  if (scope !== "session" && scope !== "project" && scope !== "global") {
    throw new Error(`plugin/method: :scope must be session, project or global (got ${scope})`);
  }
  let args: Json = {};
  const raw = params.args;
  if (typeof raw === "string") {
    try {
      args = raw.trim() === "" ? {} : JSON.parse(raw) as Json;
    } catch {
      throw new Error("plugin/method: :args is not JSON text");
    }
  } else if (raw !== undefined && raw !== null) args = raw;
  const field = str(params.field);
  if (field !== undefined) {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new Error("plugin/method: :field needs :args to be a JSON object");
    }
    args = { ...args, [field]: composer ?? "" };
  }
  const num = (v: Json | undefined) => typeof v === "number" ? v : undefined;
  return {
    plugin,
    method,
    scope,
    args,
    field,
    callId: str(params["call-id"]),
    revision: num(params.revision),
    abi: num(params.abi),
  };
}
