/**
 * Evaluating pack commands (seed 000 §8): a command file is Scheme evaluated
 * in a fresh sandbox, like the built-in defaults. Its last value is the view:
 *
 * ```scheme
 * (define goal (rpc 'plugin/method :method "get" :scope "session"))
 * (harness/choice
 *   :title (if (:ok goal) (:text (:result goal)) (string-append "unavailable: " (:error goal)))
 *   :rows (list
 *     (harness/row "Set the goal"
 *       (harness/action 'plugin/method
 *         :params (dict :plugin "planner" :method "set-goal" :scope "session"
 *                       :args "{}" :field "text")))))
 * ```
 *
 * `(rpc 'plugin/method …)` reads while the body evaluates (keyword arguments or one dict);
 * a failure comes back as `{ok: #f, error}` so the body still renders. `(composer)` is the
 * text typed after the command. Rows are `(harness/row label leaf-or-choice [:detail …])`
 * or dicts with `:label` and `:action` or `:choice`.
 *
 * @module
 */
import { z } from "zod";
import type { CommandEvaluator, CommandView } from "../core/mod.ts";
import {
  Dict,
  fromJson,
  Interpreter,
  type Json,
  Keyword,
  listToArray,
  MString,
  NIL,
  Pair,
  SchemeLimitError,
  Sym,
  toJson,
} from "../scheme/mod.ts";
import { BEHAVIOR_LIMITS } from "./program.ts";

function text(v: unknown): string | undefined {
  return typeof v === "string" ? v : v instanceof MString ? v.s : undefined;
}

function nameOf(v: unknown): string | undefined {
  return v instanceof Sym || v instanceof Keyword ? v.name : text(v);
}

function items(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === NIL || v instanceof Pair) return listToArray(v) ?? [];
  throw new TypeError("expected a list or a vector of rows");
}

function keywords(form: string, args: unknown[], allowed: string[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (let i = 0; i < args.length; i += 2) {
    const k = args[i];
    if (!(k instanceof Keyword) || !allowed.includes(k.name)) {
      throw new TypeError(`${form}: expected ${allowed.map((a) => `:${a}`).join(" ")}`);
    }
    out.set(k.name, args[i + 1]);
  }
  return out;
}

function dict(entries: [string, unknown][]): Dict {
  return new Dict(new Map(entries.filter(([, v]) => v !== undefined)));
}

const actionSchema = z.object({
  type: z.literal("action"),
  op: z.string().min(1),
  params: z.record(z.string(), z.json()).default({}),
});
type RowIn = { label: string; detail?: string; action?: unknown; choice?: unknown };
const rowSchema: z.ZodType<RowIn> = z.object({
  label: z.string(),
  detail: z.string().optional(),
  action: actionSchema.optional(),
  choice: z.lazy(() => choiceSchema).optional(),
}).refine((r) => (r.action === undefined) !== (r.choice === undefined), {
  message: "a row has an :action leaf or a nested :choice",
});
const choiceSchema = z.object({
  type: z.literal("choice"),
  title: z.string().default(""),
  rows: z.array(rowSchema),
});

/** Reads a command's value as a view. */
export function toView(value: unknown): CommandView {
  const t = text(value);
  if (t !== undefined) return { type: "text", text: t };
  let json: Json;
  try {
    json = toJson(value);
  } catch {
    throw new Error("a command yields harness/choice, harness/action or a string");
  }
  const kind = (json as { type?: unknown })?.type;
  if (kind === "action") {
    const a = actionSchema.parse(json);
    return { type: "action", action: { op: a.op, params: a.params as { [k: string]: Json } } };
  }
  const r = choiceSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(
      `the command's view is not a harness/choice: ${issue.path.join(".")}: ${issue.message}`,
    );
  }
  const clean = (c: z.infer<typeof choiceSchema>): CommandView => ({
    type: "choice",
    title: c.title,
    rows: c.rows.map((row) => ({
      label: row.label,
      ...(row.detail !== undefined ? { detail: row.detail } : {}),
      ...(row.action
        ? {
          action: {
            op: (row.action as z.infer<typeof actionSchema>).op,
            params: (row.action as z.infer<typeof actionSchema>).params as { [k: string]: Json },
          },
        }
        : {}),
      ...(row.choice ? { choice: clean(row.choice as z.infer<typeof choiceSchema>) } : {}),
    })) as never,
  });
  return clean(r.data);
}

/** Evaluates a pack command file; resolves to its view. */
export const evaluateCommand: CommandEvaluator = async (req) => {
  let open = true;
  const interp = new Interpreter({ limits: BEHAVIOR_LIMITS, stdout: req.log, stderr: req.log });
  interp.definePrimitive("composer", { maxArgs: 0, fn: () => req.composer });
  interp.definePrimitive("harness/action", {
    minArgs: 1,
    fn: (op: unknown, ...rest: unknown[]) => {
      const o = nameOf(op);
      if (!o) {
        throw new TypeError("harness/action: the first argument is the verb ('plugin/method)");
      }
      const k = keywords("harness/action", rest, ["params"]);
      const params = k.get("params") ?? new Dict(new Map());
      if (!(params instanceof Dict)) throw new TypeError("harness/action: :params is a dict");
      return dict([["type", "action"], ["op", o], ["params", params]]);
    },
  });
  interp.definePrimitive("harness/choice", {
    fn: (...args: unknown[]) => {
      const k = keywords("harness/choice", args, ["title", "rows"]);
      const rows = k.has("rows") ? items(k.get("rows")) : [];
      return dict([["type", "choice"], ["title", k.get("title") ?? ""], ["rows", rows]]);
    },
  });
  interp.definePrimitive("harness/row", {
    minArgs: 2,
    fn: (label: unknown, leaf: unknown, ...rest: unknown[]) => {
      const k = keywords("harness/row", rest, ["detail"]);
      const kind = leaf instanceof Dict ? text(leaf.map.get("type")) : undefined;
      if (kind !== "action" && kind !== "choice") {
        throw new TypeError(
          "harness/row: the second argument is a harness/action or harness/choice",
        );
      }
      return dict([
        ["label", label],
        ["detail", k.get("detail")],
        [kind, leaf],
      ]);
    },
  });
  interp.definePrimitive("rpc", {
    minArgs: 1,
    untimed: true,
    fn: async (op: unknown, ...rest: unknown[]) => {
      if (!open) throw new Error("rpc: reads happen while the body evaluates");
      const verb = nameOf(op) ?? "";
      let params: Json = {};
      if (rest.length === 1 && rest[0] instanceof Dict) params = toJson(rest[0]);
      else {
        const o: { [k: string]: Json } = {};
        for (let i = 0; i < rest.length; i += 2) {
          const key = rest[i];
          if (!(key instanceof Keyword)) throw new TypeError("rpc: expected :keyword value pairs");
          o[key.name] = toJson(rest[i + 1]);
        }
        params = o;
      }
      return fromJson(await req.rpc(verb, params as { [k: string]: Json }));
    },
  });
  let value: unknown;
  try {
    const source = Deno.readTextFileSync(req.file);
    const forms = interp.reader(source, req.file).readAll();
    for (const form of forms) value = await interp.evalDatum(form, { file: req.file });
  } catch (err) {
    const where = err instanceof SchemeLimitError ? "stopped by the sandbox" : "failed";
    throw new Error(`/${req.name} (${req.file}) ${where}: ${(err as Error).message}`);
  } finally {
    open = false;
  }
  return toView(value);
};
