/**
 * The effect seam (DESIGN §5): every tool call is one dispatch through
 * ceiling → guards (sequential middleware, fail closed) → floor (allow / ask /
 * deny) → core, with observer hooks in parallel (fail open) and a
 * `tool_execution` audit event that never carries bodies.
 *
 * @module
 */
import {
  type AuditEvent,
  type Owner,
  ownerLabel,
  resultText,
  textResult,
  type ToolResult,
} from "../base/mod.ts";

/** Where an effect happens. */
export type Point =
  | "read"
  | "write"
  | "edit"
  | "shell"
  | "mcp"
  | "agent"
  | "tool"
  | "turn"
  | "round";

/** One effect to dispatch. */
export interface EffectCall {
  /** The effect point the call is dispatched at. */
  point: Point;
  /** The tool's name. */
  tool: string;
  /** Who registered the tool (a built-in, an executable, a runtime plugin, a behavior). */
  owner: Owner;
  /** Which agent asks: "main" or "agent:<session id>". */
  principal: string;
  /** The model's id of the call. */
  callId: string;
  /** The call's input. */
  input: unknown;
  /** The session id of the run the call belongs to (when there is one). */
  session?: string;
}

/** A guard's refusal. */
export interface Refusal {
  /** Marks a refusal. */
  refused: true;
  /** Why the call was refused (shown to the model). */
  reason: string;
}

/** A guard's request to run the chain again from the raw value (`guard/retry`). */
export interface Retry {
  /** Marks a retry request. */
  retry: true;
  /** Why the chain is run again. */
  reason: string;
}

/** Single-use continuation handed to a guard. */
export type Invoke = (value: unknown) => Promise<ToolResult>;

/** Critical-path middleware. */
export interface Guard {
  /** Identifies the guard (in messages and the re-entrancy bound). */
  id: string;
  /** The effect point it guards (`*`: every point). */
  point: Point | "*";
  /** Host-side match; a miss never enters the middleware. */
  match?: (call: EffectCall) => boolean;
  /**
   * The declared capability to replace the result, with its contract. A guard without it
   * passes the core's result on unchanged (marks aside); a replacement it makes anyway is
   * surfaced as a failure and the core's result is kept.
   */
  replace?: "redaction" | "summarize";
  /** How many times the guard may be entered again while it runs (default 0). */
  reentrantDepth?: number;
  /**
   * Runs around the call: passes a (possibly rewritten) value to `invoke`, or refuses, or asks for
   * a retry.
   */
  middleware(
    raw: unknown,
    invoke: Invoke,
    call: EffectCall,
  ): Promise<ToolResult | Refusal | Retry>;
}

/** How many times one call's guard chain may be restarted by `guard/retry`. */
export const RETRY_BUDGET = 3;

/** The mark a declared replacement leaves, by contract. */
export const REPLACE_MARK: Record<"redaction" | "summarize", string> = {
  redaction: "redacted",
  summarize: "summarized",
};

/** Parallel observer (fail open). */
export interface Hook {
  /** Identifies the hook (in failure reports). */
  id: string;
  /** The effect point it observes (`*`: every point). */
  point: Point | "*";
  /** Observes the call before it runs (its return value is ignored). */
  pre?(value: unknown, call: EffectCall): unknown;
  /** Observes a successful result. */
  post?(value: unknown, result: ToolResult, call: EffectCall): unknown;
  /** Observes a failed call with its error text. */
  postFail?(value: unknown, failure: string, call: EffectCall): unknown;
}

/** A floor decision. */
export interface Decision {
  /** Whether the call may run, must be asked about, or is refused. */
  decision: "allow" | "ask" | "deny";
  /** The rule that decided (as written, or `default`). */
  rule: string;
  /** Why, when the call is refused or asked about. */
  reason?: string;
}

/** The permission engine / effect floor. */
export interface Floor {
  /** Decides on a call. */
  decide(call: EffectCall): Decision | Promise<Decision>;
  /** Resolves an `ask` (interactive prompt); headless floors deny. */
  ask?(call: EffectCall, decision: Decision): Promise<boolean>;
}

/** A floor that allows everything (the kernel default until a policy is set). */
export const allowAllFloor: Floor = {
  decide: () => ({ decision: "allow", rule: "default" }),
};

/** Effect point of a tool name. */
export function pointOf(tool: string): Point {
  switch (tool) {
    case "bash":
      return "shell";
    case "read_file":
      return "read";
    case "write_file":
      return "write";
    case "edit_file":
      return "edit";
    case "agent":
      return "agent";
    default:
      return tool.startsWith("mcp__") ? "mcp" : "tool";
  }
}

/** Dependencies of a {@link Dispatcher}. */
export interface DispatcherOptions {
  /** The guards, read at each call. */
  guards: () => Guard[];
  /** The hooks, read at each call. */
  hooks: () => Hook[];
  /** The floor that decides every call. */
  floor: Floor;
  /** Tools the calling agent may use; undefined = no ceiling. */
  ceiling?: (call: EffectCall) => boolean;
  /** Receives the audit events of decisions and executions (best effort). */
  audit: (event: AuditEvent) => void;
  /**
   * Records a permission event durably (fail-closed audit): when present, each decision
   * waits for it and the call is refused when it resolves false.
   */
  record?: (event: AuditEvent) => Promise<boolean>;
  /** Re-validates an input rewritten by a guard; returns an error text or undefined. */
  validate?: (tool: string, input: unknown) => string | undefined;
  /** Collected hook failures (fail open) go here. */
  onHookError?: (hookId: string, message: string) => void;
}

function isRefusal(v: unknown): v is Refusal {
  return typeof v === "object" && v !== null && (v as Refusal).refused === true;
}

function isRetry(v: unknown): v is Retry {
  return typeof v === "object" && v !== null && (v as Retry).retry === true;
}

/** Same text and error flag (marks aside). */
function sameResult(a: ToolResult, b: ToolResult): boolean {
  return resultText(a) === resultText(b) && (a.isError === true) === (b.isError === true);
}

class RetryRequested extends Error {
  constructor(readonly guard: string, readonly reason: string) {
    super(reason);
  }
}

/** Dispatches effects through the seam. */
export class Dispatcher {
  #o: DispatcherOptions;
  /** Guards running now, with how many times each is entered (re-entrancy bound). */
  #active = new Map<string, number>();

  /** Creates a dispatcher from its dependencies. */
  constructor(opts: DispatcherOptions) {
    this.#o = opts;
  }

  /** Runs one call; `core` is the tool's execution. Never throws. */
  async dispatch(
    call: EffectCall,
    core: (input: unknown) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const started = performance.now();
    // turn and round boundaries pass the seam for guards and hooks; they are not tool calls
    const boundary = call.point === "turn" || call.point === "round";
    const audit = (e: AuditEvent) => {
      if (!boundary) this.#o.audit(e);
    };
    const finish = (result: ToolResult, outcome: "ok" | "error" | "refused") => {
      audit({
        type: "tool_execution",
        time: new Date().toISOString(),
        tool: call.tool,
        owner: ownerLabel(call.owner),
        callId: call.callId,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        outcome,
      });
      return result;
    };
    if (this.#o.ceiling && !this.#o.ceiling(call)) {
      return finish(
        textResult(`error: tool '${call.tool}' is not available to this agent`, true),
        "refused",
      );
    }
    const guards = this.#o.guards().filter((g) =>
      (g.point === "*" || g.point === call.point) && (!g.match || g.match(call))
    );
    const hooks = this.#o.hooks().filter((h) => h.point === "*" || h.point === call.point);

    let reachedFloor: unknown = call.input;
    const floorAndCore = async (value: unknown): Promise<ToolResult> => {
      if (value !== call.input && this.#o.validate) {
        const problem = this.#o.validate(call.tool, value);
        if (problem) return textResult(`error: rewritten input rejected: ${problem}`, true);
      }
      const effective = { ...call, input: value };
      let d = await this.#o.floor.decide(effective);
      await this.#permission(call, "decision", d);
      if (d.decision === "ask") {
        const ok = this.#o.floor.ask ? await this.#o.floor.ask(effective, d) : false;
        d = { ...d, decision: ok ? "allow" : "deny" };
        await this.#permission(call, "response", d);
      }
      if (d.decision !== "allow") {
        throw new FloorDenied(
          `error: permission denied for ${call.tool}${
            d.reason ? `: ${d.reason}` : ""
          } (rule ${d.rule})`,
        );
      }
      reachedFloor = value;
      await this.#runHooks(hooks, (h) => h.pre?.(value, effective));
      return core(value);
    };

    // Marks accumulate over the whole call: a guard adds, nobody removes.
    const marks = new Set<string>();
    const withMarks = (r: ToolResult): ToolResult => {
      for (const m of r.marks ?? []) marks.add(m);
      return marks.size ? { ...r, marks: [...marks] } : r;
    };

    // Build the chain from the innermost (floor + core) outwards.
    let next: (value: unknown) => Promise<ToolResult> = async (v) =>
      withMarks(await floorAndCore(v));
    for (const g of [...guards].reverse()) {
      const inner = next;
      next = async (value: unknown) => {
        const entered = this.#active.get(g.id) ?? 0;
        if (entered > (g.reentrantDepth ?? 0)) {
          return textResult(
            `error: refused by guard ${g.id}: re-entered while it runs (reentrant-depth ${
              g.reentrantDepth ?? 0
            })`,
            true,
          );
        }
        let used = false;
        let coreResult: ToolResult | undefined;
        const invoke: Invoke = async (v) => {
          if (used) throw new Error(`guard ${g.id}: invoke called twice`);
          used = true;
          coreResult = await inner(v);
          return coreResult;
        };
        let out: ToolResult | Refusal | Retry;
        this.#active.set(g.id, entered + 1);
        try {
          out = await g.middleware(value, invoke, call);
        } catch (err) {
          if (err instanceof FloorDenied) throw err;
          if (coreResult) {
            this.#o.onHookError?.(
              g.id,
              `guard failed after invoke: ${(err as Error)?.message ?? err}`,
            );
            return coreResult;
          }
          return textResult(
            `error: refused by guard ${g.id} (it failed; guards fail closed)`,
            true,
          );
        } finally {
          if (entered === 0) this.#active.delete(g.id);
          else this.#active.set(g.id, entered);
        }
        if (isRefusal(out)) {
          return textResult(`error: refused by guard ${g.id}: ${out.reason}`, true);
        }
        if (isRetry(out)) {
          if (coreResult) {
            this.#o.onHookError?.(g.id, "guard/retry after invoke: the core result is kept");
            return coreResult;
          }
          throw new RetryRequested(g.id, out.reason);
        }
        if (!used || !coreResult) {
          return textResult(`error: refused by guard ${g.id}: it returned without invoking`, true);
        }
        const returned = withMarks(out);
        if (sameResult(returned, coreResult)) return { ...coreResult, marks: returned.marks };
        if (!g.replace) {
          this.#o.onHookError?.(
            g.id,
            "replaced the result without the replace capability: the core result is kept",
          );
          return coreResult;
        }
        marks.add(REPLACE_MARK[g.replace]);
        return withMarks(returned);
      };
    }

    let result: ToolResult | undefined;
    for (let attempt = 1; result === undefined; attempt++) {
      try {
        result = await next(call.input);
      } catch (err) {
        if (err instanceof FloorDenied) return finish(textResult(err.message, true), "refused");
        if (err instanceof RetryRequested) {
          if (attempt <= RETRY_BUDGET) continue;
          return finish(
            textResult(
              `error: refused by guard ${err.guard}: retry budget of ${RETRY_BUDGET} exhausted (${err.reason})`,
              true,
            ),
            "refused",
          );
        }
        result = textResult(
          `error: tool '${call.tool}' failed: ${(err as Error)?.message ?? err}`,
          true,
        );
      }
    }
    if (result.isError) {
      await this.#runHooks(hooks, (h) => h.postFail?.(reachedFloor, resultText(result), call));
    } else {
      await this.#runHooks(hooks, (h) => h.post?.(reachedFloor, result, call));
    }
    return finish(result, result.isError ? "error" : "ok");
  }

  /** Emits a permission record; a fail-closed audit that cannot write it refuses the call. */
  async #permission(
    call: EffectCall,
    record: "decision" | "response",
    d: Decision,
  ): Promise<void> {
    // turn and round boundaries are not tool calls: no permission record
    if (call.point === "turn" || call.point === "round") return;
    const event: AuditEvent = {
      type: "permission",
      time: new Date().toISOString(),
      record,
      tool: call.tool,
      rule: d.rule,
      principal: call.principal,
      callId: call.callId,
      decision: d.decision,
    };
    if (!this.#o.record) {
      this.#o.audit(event);
      return;
    }
    if (!(await this.#o.record(event))) {
      throw new FloorDenied(
        `error: refused: the audit record of this ${call.tool} call could not be written ` +
          "(the audit is fail closed)",
      );
    }
  }

  async #runHooks(hooks: Hook[], fn: (h: Hook) => unknown): Promise<void> {
    if (hooks.length === 0) return;
    await Promise.all(hooks.map(async (h) => {
      try {
        await fn(h);
      } catch (err) {
        this.#o.onHookError?.(h.id, (err as Error)?.message ?? String(err));
      }
    }));
  }
}

class FloorDenied extends Error {}
