/**
 * A program's guards and hooks on the effect seam (seed 000 §4): each
 * declaration becomes a core {@link Guard} or {@link Hook}. The host matches
 * before Scheme runs — the point, the agent the bot belongs to, and the
 * globs of `:match` over the call's subject (a path, the commands of a shell
 * script, an MCP tool's name) — so a miss never enters the program.
 *
 * Values cross as JSON: the raw input becomes a dict, `invoke` takes the
 * (possibly rewritten) value and returns the result as a dict `{text, error,
 * marks}`; a guard returns that dict (maybe changed), `(refuse "…")` or
 * `(guard/retry "…")`.
 *
 * @module
 */
import {
  analyseShell,
  type CallbackScope,
  type EffectCall,
  evaluate,
  globToRegExp,
  type Guard,
  type Hook,
  parseRule,
  type PolicyPlaces,
  resultText,
  subjectOf,
  type ToolResult,
} from "../core/mod.ts";
import { Dict, fromJson, type Interpreter, type Json, MString, toJson } from "../scheme/mod.ts";
import type { BehaviorPoint, GuardDecl, HookDecl } from "./forms.ts";
import { RefusalValue, RetryValue } from "./outcome.ts";
import { BehaviorRuntime, type Frame } from "./runtime.ts";

/** Where a program's guards and hooks apply. */
export interface SeamScope {
  /** The agents (principals) the bot's behavior applies to. */
  appliesTo(principal: string): boolean;
  /** Workspace and homes, for path globs. */
  places: PolicyPlaces;
  /** A prefix for ids (pack and bot), so two bots loading one program stay apart. */
  owner: string;
  /** The program's runtime (what `self/notify` and `call/method` see); default: none. */
  runtime?: BehaviorRuntime;
}

/** Which end of a turn or round boundary a call is (its record's `phase`). */
function phaseOf(call: EffectCall): "start" | "end" | undefined {
  if (call.point !== "turn" && call.point !== "round") return undefined;
  return (call.input as { phase?: unknown } | undefined)?.phase === "end" ? "end" : "start";
}

/** Where a callback for `call` runs (its agent, session and boundary). */
export function callbackScope(call: EffectCall): CallbackScope {
  const phase = phaseOf(call);
  const input = call.input as { session?: unknown } | undefined;
  const session = call.session ?? (typeof input?.session === "string" ? input.session : undefined);
  if (phase) {
    return {
      principal: call.principal,
      session,
      boundary: call.point as "turn" | "round",
      at: phase,
    };
  }
  return { principal: call.principal, session, boundary: "round", at: "call" };
}

/** A result as Scheme sees it: `(dict :text … :error … :marks #(…))`. */
export function resultToScheme(r: ToolResult): Dict {
  return new Dict(
    new Map<string, unknown>([
      ["text", resultText(r)],
      ["error", r.isError === true],
      ["marks", [...(r.marks ?? [])]],
    ]),
  );
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : v instanceof MString ? v.s : undefined;
}

/** What a guard returned, as a result (a dict or a plain string). */
export function schemeToResult(v: unknown): ToolResult {
  const text = str(v);
  if (text !== undefined) return { content: [{ type: "text", text }] };
  if (v instanceof Dict) {
    const t = str(v.map.get("text"));
    if (t === undefined) throw new TypeError("a result dict needs :text (a string)");
    const marks = v.map.get("marks");
    const list = Array.isArray(marks)
      ? marks.map(str).filter((m): m is string => m !== undefined)
      : [];
    return {
      content: [{ type: "text", text: t }],
      isError: v.map.get("error") === true,
      ...(list.length ? { marks: list } : {}),
    };
  }
  throw new TypeError(
    'a guard returns the result of invoke (or a changed copy), (refuse "…") or (guard/retry "…")',
  );
}

/** A call's value in Scheme (tool inputs are JSON already; anything else is made JSON first). */
function toScheme(v: unknown): unknown {
  try {
    return fromJson((v ?? null) as Json);
  } catch {
    try {
      return fromJson(JSON.parse(JSON.stringify(v ?? null)) as Json);
    } catch {
      return fromJson(null);
    }
  }
}

/** A matcher over the subject of calls at a point. */
export function matcher(
  point: BehaviorPoint,
  globs: string[],
  places: PolicyPlaces,
): (call: EffectCall) => boolean {
  if (globs.length === 0) return () => true;
  if (point === "mcp" || point === "agent") {
    const res = globs.map((g) => globToRegExp(g, false));
    return (call) => res.some((r) => r.test(call.tool));
  }
  if (point === "turn" || point === "round") {
    const res = globs.map((g) => globToRegExp(g, false));
    return (call) => {
      const m = (call.input as { message?: unknown } | undefined)?.message;
      return typeof m === "string" && res.some((r) => r.test(m));
    };
  }
  if (point === "shell") {
    const res = globs.map((g) => globToRegExp(g, false));
    return (call) => {
      const command = (call.input as { command?: unknown } | undefined)?.command;
      if (typeof command !== "string") return false;
      const a = analyseShell(command);
      // a script that cannot be fully analysed may run anything: the guard sees it
      if (a.uncertain) return true;
      return a.commands.some((words) => {
        const base = words[0].slice(words[0].lastIndexOf("/") + 1);
        const line = words.join(" ");
        const short = [base, ...words.slice(1)].join(" ");
        return res.some((r) => r.test(line) || r.test(short));
      });
    };
  }
  const rules = globs.map((g) => parseRule(`*(${g})`, "allow", "behavior"));
  return (call) => {
    const subject = subjectOf(call.tool, call.input, places);
    return evaluate(rules, subject, places, "deny").verdict === "allow";
  };
}

/** The core guard of a declared guard. */
export function seamGuard(interp: Interpreter, decl: GuardDecl, scope: SeamScope): Guard {
  const match = matcher(decl.point, decl.match, scope.places);
  const rt = scope.runtime ?? new BehaviorRuntime();
  return {
    id: `${scope.owner}/${decl.id}`,
    point: decl.point,
    replace: decl.contract && decl.capabilities.includes("replace") ? decl.contract : undefined,
    reentrantDepth: decl.reentrantDepth,
    // the boundary seam (core/boundaries.ts) asks guards at a boundary's start only
    match: (call) => scope.appliesTo(call.principal) && match(call),
    async middleware(raw, invoke, call) {
      const frame: Frame = { kind: "callback", scope: callbackScope(call) };
      const invokeProc = interp.procedure("invoke", {
        fn: async (v: unknown) => {
          const r = resultToScheme(await invoke(toJson(v)));
          rt.current = frame;
          return r;
        },
        minArgs: 1,
        maxArgs: 1,
        // the guarded tool's own time is not the guard's
        untimed: true,
      });
      const out = await rt.within(
        frame,
        () => interp.call(decl.middleware, toScheme(raw), invokeProc),
      );
      if (out instanceof RefusalValue) return { refused: true, reason: out.reason };
      if (out instanceof RetryValue) return { retry: true, reason: out.reason };
      return schemeToResult(out);
    },
  };
}

/** The core hook of a declared hook (its value and errors never change the call). */
export function seamHook(interp: Interpreter, decl: HookDecl, scope: SeamScope): Hook {
  const match = matcher(decl.point, decl.match, scope.places);
  const rt = scope.runtime ?? new BehaviorRuntime();
  // a boundary's :pre runs at its start, :post and :post-fail at its end (core/boundaries.ts)
  const applies = (call: EffectCall) => scope.appliesTo(call.principal) && match(call);
  const run = (call: EffectCall, fn: unknown, ...args: unknown[]) =>
    rt.within({ kind: "callback", scope: callbackScope(call) }, () => interp.call(fn, ...args));
  return {
    id: `${scope.owner}/${decl.id}`,
    point: decl.point,
    pre: decl.pre
      ? (value, call) => applies(call) ? run(call, decl.pre, toScheme(value)) : undefined
      : undefined,
    post: decl.post
      ? (value, result, call) =>
        applies(call) ? run(call, decl.post, toScheme(value), resultToScheme(result)) : undefined
      : undefined,
    postFail: decl.postFail
      ? (value, failure, call) =>
        applies(call) ? run(call, decl.postFail, toScheme(value), failure) : undefined
      : undefined,
  };
}
