/**
 * {@link TurnHost}: the narrow set of harness services a {@link Turn} is given.
 * The turn imports no harness; the composition root injects one (tests inject
 * a fake).
 *
 * @module
 */
import type {
  ChildEnvRequest,
  LifecycleEmit,
  PromptSource,
  ProtocolAdapter,
  ResolvedTool,
  SkillInfo,
  SubAgentRequest,
  SubAgentResult,
  ToolEffects,
  ToolResult,
} from "../base/mod.ts";
import type { HarnessConfig } from "../config/mod.ts";
import type { Snapshot } from "../discovery/mod.ts";
import type { EffectCall, Invoke } from "../guards/mod.ts";
import type { StageRunner } from "./stage_runner.ts";

export type { ResolveApi, ToolCall, TurnApi } from "./stage.ts";

/** What a loop-end addendum is asked with. */
export interface LoopEndInfo {
  /** The session's id. */
  session: string;
  /** Who ran the loop ("main", or a bot's principal). */
  principal: string;
  /** The round that ended. */
  round: number;
  /** The model's answer of the round that ended. */
  output: string;
}

/** What a {@link Turn} needs from the harness. */
export interface TurnHost {
  /** The harness's configuration. */
  readonly config: HarnessConfig;
  /** The harness's working directory (a session's own `cwd=` wins). */
  readonly cwd: string;
  /** Runs stages (hooks with the harness's environment, timeout and sandbox). */
  readonly stages: StageRunner;
  /** Runs the `sources` stage again when discovery changed (before every stage). */
  refreshSources?(signal: AbortSignal): Promise<void>;
  /** The effect floor's file and process runtime for tools, if any. */
  readonly effects?: ToolEffects;
  /** Writes a line to HARNESS_LOG. */
  log(line: string): void;
  /** The discovery snapshot scoped to a provider and protocol. */
  snapshot(provider: string, protocol: string): Snapshot;
  /** The wire adapter of a protocol. */
  protocol(name: string): ProtocolAdapter | undefined;
  /**
   * Every tool an agent may call in a snapshot: registered ones, executables, its bot's
   * tools — within its bot's effect ceiling (problems go to the log).
   */
  tools(snapshot: Snapshot, principal: string): Promise<Map<string, ResolvedTool>>;
  /** Sends one effect through the seam: ceiling → guards → floor → core. */
  dispatch(call: EffectCall, core: Invoke): Promise<ToolResult>;
  /** The environment of tools (no credentials). */
  childEnv(req: ChildEnvRequest): Record<string, string>;
  /** System prompt sections: those of plugins, then the agent's bot prompt. */
  promptSources(principal: string): PromptSource[];
  /**
   * A turn or round starts, through the boundary seam (its `guard/turn` / `guard/round`
   * guards around its `:pre` hooks; never the dispatcher, so no ceiling, floor or audit):
   * resolves to the refusal text when a guard refuses it.
   */
  boundary(
    kind: "turn" | "round",
    record: Record<string, unknown>,
    principal: string,
  ): Promise<string | undefined>;
  /**
   * The end of a round or of the turn through the boundary seam's hooks (`hook/round :post`,
   * `:post-fail` after an error; guards do not gate an end): notes left there reach this
   * turn. Absent: ends are not observed.
   */
  boundaryEnd?(
    kind: "turn" | "round",
    record: Record<string, unknown>,
    principal: string,
    outcome: { stop: string; error: boolean; output?: string },
  ): Promise<void>;
  /**
   * Loop-end addenda, asked when the model ended a round without tool calls: each
   * non-empty text asks for another round (ORed with the plugins' activating notes).
   */
  loopEnd?(info: LoopEndInfo): Promise<string[]>;
  /** Skills visible from a directory. */
  skills(cwd: string): SkillInfo[];
  /** Emits a lifecycle event to plugin observers (fail open; absent = nobody listens). */
  readonly lifecycle?: LifecycleEmit;
  /** Runs a child agent loop for the `agent` tool (same plugins, floor and audit). */
  runAgent(
    request: SubAgentRequest,
    parent: { session: string; provider: string; model: string },
  ): Promise<SubAgentResult>;
}
