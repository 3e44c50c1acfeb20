/**
 * The effect seam (DESIGN §5): every tool call is one dispatch through
 * ceiling → guards (sequential middleware, fail closed) → floor (allow / ask /
 * deny) → core, with observer hooks in parallel (fail open) and a
 * `tool_execution` audit event that never carries bodies. The guard and hook
 * chains are `chain.ts`'s, shared with the turn and round boundaries (which
 * never pass here).
 *
 * @module
 */
import {
  type AuditEvent,
  ownerLabel,
  resultText,
  textResult,
  type ToolResult,
} from "../base/mod.ts";
import { ChainRefused, guardsFor, hooksAt, SeamChains } from "./chain.ts";
import type { EffectCall, Guard, Hook, Point } from "./effect.ts";

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
   * waits for it and the call is refused when it resolves false or a reason (which sink, how
   * long it waited).
   */
  record?: (event: AuditEvent) => Promise<boolean | string>;
  /** Re-validates an input rewritten by a guard; returns an error text or undefined. */
  validate?: (tool: string, input: unknown) => string | undefined;
  /** Collected hook failures (fail open) go here. */
  onHookError?: (hookId: string, message: string) => void;
  /**
   * The guard and hook chains, shared with the boundary seam (default: the dispatcher's own,
   * reporting to `onHookError`).
   */
  chains?: SeamChains;
}

/** Dispatches effects through the seam. */
export class Dispatcher {
  #o: DispatcherOptions;
  #chains: SeamChains;

  /** Creates a dispatcher from its dependencies. */
  constructor(opts: DispatcherOptions) {
    this.#o = opts;
    this.#chains = opts.chains ?? new SeamChains(opts.onHookError);
  }

  /** Runs one call; `core` is the tool's execution. Never throws. */
  async dispatch(
    call: EffectCall,
    core: (input: unknown) => Promise<ToolResult>,
  ): Promise<ToolResult> {
    const started = performance.now();
    const finish = (result: ToolResult, outcome: "ok" | "error" | "refused") => {
      this.#o.audit({
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
    const guards = guardsFor(this.#o.guards(), call);
    const hooks = hooksAt(this.#o.hooks(), call.point);
    let reachedFloor: unknown = call.input;
    const floorAndCore = async (value: unknown): Promise<ToolResult> => {
      if (value !== call.input && this.#o.validate) {
        const problem = this.#o.validate(call.tool, value);
        if (problem) return textResult(`error: rewritten input rejected: ${problem}`, true);
      }
      const effective = { ...call, input: value };
      await this.#decide(effective);
      reachedFloor = value;
      await this.#chains.observe(hooks, (h) => h.pre?.(value, effective));
      return core(value);
    };
    const { result, refused } = await this.#chains.guard(guards, call, floorAndCore);
    if (refused) return finish(result, "refused");
    if (result.isError) {
      await this.#chains.observe(
        hooks,
        (h) => h.postFail?.(reachedFloor, resultText(result), call),
      );
    } else {
      await this.#chains.observe(hooks, (h) => h.post?.(reachedFloor, result, call));
    }
    return finish(result, result.isError ? "error" : "ok");
  }

  /** The floor's decision on the call as it reaches the floor (an `ask` asked); refuses. */
  async #decide(effective: EffectCall): Promise<void> {
    let d = await this.#o.floor.decide(effective);
    await this.#permission(effective, "decision", d);
    if (d.decision === "ask") {
      const ok = this.#o.floor.ask ? await this.#o.floor.ask(effective, d) : false;
      d = { ...d, decision: ok ? "allow" : "deny" };
      await this.#permission(effective, "response", d);
    }
    if (d.decision !== "allow") {
      throw new ChainRefused(
        `error: permission denied for ${effective.tool}${
          d.reason ? `: ${d.reason}` : ""
        } (rule ${d.rule})`,
      );
    }
  }

  /** Emits a permission record; a fail-closed audit that cannot write it refuses the call. */
  async #permission(
    call: EffectCall,
    record: "decision" | "response",
    d: Decision,
  ): Promise<void> {
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
    const written = await this.#o.record(event);
    if (written !== true) {
      const why = typeof written === "string" ? `: ${written}` : "";
      throw new ChainRefused(
        `error: refused: the audit record of this ${call.tool} call could not be written${why} ` +
          "(the audit is fail closed)",
      );
    }
  }
}
