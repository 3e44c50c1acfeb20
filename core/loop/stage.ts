/**
 * The contract of a stage hook implemented in-process (the built-in hooks
 * are these; runtime plugins register more with `ctx.hooks.register`). Each
 * stage family hands its hooks a typed context: the `resolve` stage its
 * provider listing, the turn stages the running {@link TurnApi}, `auth-set`
 * the provider being stored, `sources` hs's own source list.
 *
 * @module
 */
import type {
  HarnessEvent,
  ModelProvider,
  ProtocolAdapter,
  SkillInfo,
  ToolSchema,
  Usage,
} from "../base/mod.ts";
import type { ProviderInfo, ResolvedLimits } from "../providers/mod.ts";
import type { Session } from "../session/mod.ts";
import type { Continuation } from "./continuation.ts";

/**
 * The stages the kernel knows, in loop order: `sources` and `resolve` before a turn, the
 * turn's stages, `compact` (summarizing older messages), `auth-set` (storing a key).
 * `hooks.d/` may add custom stages.
 */
export const KNOWN_STAGES: readonly string[] = [
  "sources",
  "resolve",
  "start",
  "assemble",
  "send",
  "receive",
  "tool_exec",
  "tool_done",
  "done",
  "error",
  "compact",
  "auth-set",
];

/** A tool call from the model. */
export interface ToolCall {
  /** The call id the model gave. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The tool's input as the model sent it. */
  input: unknown;
}

/** The services of a running turn (what the built-in hooks of the turn stages use). */
export interface TurnApi {
  /** The turn's session. */
  readonly session: Session;
  /** The active provider. */
  readonly provider: string;
  /** The active model. */
  readonly model: string;
  /** Aborted when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** Notes left for the turn (behaviors' `self/notify`). */
  readonly continuation: Continuation;
  /** The model's limits (window, output, tool calls per response); absent: the defaults. */
  readonly limits?: ResolvedLimits;
  /** Protocol adapter of the active provider. */
  adapter(): ProtocolAdapter;
  /** The active model provider. */
  modelProvider(): ModelProvider;
  /** Emits an event of the turn (recorded in the session's stream, passed to the caller). */
  emit(event: HarnessEvent): void;
  /** Tool schemas for this round, stable order. */
  toolSchemas(): Promise<ToolSchema[]>;
  /**
   * Runs one tool call through the effect seam. `dispatched`: the call already ran (a
   * dispatching `send` hook left its result); the seam decides on it as usual and its core
   * returns that result instead of running an executable tool again.
   */
  executeTool(
    call: ToolCall,
    dispatched?: { result: string; error: boolean },
  ): Promise<{ result: string; error: boolean }>;
  /** System prompt parts in order (built-in sections, AGENTS.md, prompts/*.md). */
  systemParts(): Promise<string[]>;
  /** Skills visible in the turn. */
  skills(): Promise<SkillInfo[]>;
  /**
   * Records a saved tool result: its `.stream` line when `seq` (the message it was saved
   * as) is given, and the tool events of a result that did not come from executeTool (a
   * gate answered the call).
   */
  noteResult(call: ToolCall, result: string, error: boolean, seq?: number): void;
  /** Adds a model request's usage to the turn's total. */
  noteUsage(usage: Usage): void;
}

/** The services of the `resolve` stage. */
export interface ResolveApi {
  /** The providers resolution may choose from. */
  providers(): Promise<ProviderInfo[]>;
  /** provider/model from the most local settings.conf. */
  settings(): { provider?: string; model?: string };
  /** Why a provider of that name could not be loaded (a broken `.conf`, with its line), if so. */
  problem?(name: string): string | undefined;
}

/** What a `resolve` hook reaches. */
export interface ResolveContext {
  /** Discriminant: the `resolve` stage. */
  readonly kind: "resolve";
  /** Aborted when the caller gives up. */
  readonly signal: AbortSignal;
  /** The providers and settings resolution chooses from. */
  readonly resolve: ResolveApi;
}

/** What a hook of a turn stage (start … done, error, and custom stages) reaches. */
export interface TurnContext {
  /** Discriminant: a turn stage. */
  readonly kind: "turn";
  /** Aborted when the turn is cancelled. */
  readonly signal: AbortSignal;
  /** The running turn's services. */
  readonly turn: TurnApi;
}

/** What an `auth-set` hook reaches. */
export interface AuthSetContext {
  /** Discriminant: the `auth-set` stage. */
  readonly kind: "auth-set";
  /** Aborted when the caller gives up. */
  readonly signal: AbortSignal;
  /** The provider whose credential is being stored (`HARNESS_AUTH_PROVIDER`). */
  readonly provider: string;
}

/** What a `sources` hook reaches. */
export interface SourcesContext {
  /** Discriminant: the `sources` stage. */
  readonly kind: "sources";
  /** Aborted when the caller gives up. */
  readonly signal: AbortSignal;
  /**
   * hs's own source list, lowest priority first: the generated directory of the built-ins
   * (when there is one), then the walk's sources (`$HARNESS_HOME`, every trusted
   * `.harness/` from `/` down, each preceded by its packs).
   */
  walk(): string[];
}

/** Any stage context. */
export type StageContext = ResolveContext | TurnContext | AuthSetContext | SourcesContext;

/** The stages of a turn whose built-in hooks the kernel ships. */
export type TurnStage =
  | "start"
  | "assemble"
  | "send"
  | "receive"
  | "tool_exec"
  | "tool_done"
  | "done"
  | "error";

/**
 * The context of stage `S`: `resolve` and `auth-set` have their own; every other stage
 * (custom ones included) is a turn's. For an unknown stage (`string`) it is any context.
 */
export type ContextOf<S extends string> = string extends S ? StageContext
  : S extends "resolve" ? ResolveContext
  : S extends "auth-set" ? AuthSetContext
  : S extends "sources" ? SourcesContext
  : TurnContext;

/** A stage hook as the registry holds it: any stage, any context (narrow on `ctx.kind`). */
export interface StageHook {
  /** Stage name, e.g. "assemble". */
  stage: string;
  /** Basename, e.g. "10-messages": a same-basename executable replaces it. */
  name: string;
  /** Receives the chain's current JSON; returns the next JSON. Throwing aborts the chain. */
  run(input: Record<string, unknown>, ctx: StageContext): Promise<Record<string, unknown>>;
}

/** A stage hook whose context is typed by its stage (see {@link stageHook}). */
export interface TypedStageHook<S extends string> {
  /** Stage name, e.g. "assemble". */
  stage: S;
  /** Basename, e.g. "10-messages": a same-basename executable replaces it. */
  name: string;
  /** Receives the chain's current JSON; returns the next JSON. Throwing aborts the chain. */
  run(input: Record<string, unknown>, ctx: ContextOf<S>): Promise<Record<string, unknown>>;
}

/** The context kind stage `stage` runs with. */
export function contextKind(stage: string): StageContext["kind"] {
  return stage === "resolve" || stage === "auth-set" || stage === "sources" ? stage : "turn";
}

/**
 * Declares a stage hook with its context typed by its stage. The kernel always pairs a
 * stage with its context kind; the check here makes a mismatch an error, not a wrong cast.
 */
export function stageHook<S extends string>(hook: TypedStageHook<S>): StageHook {
  const kind = contextKind(hook.stage);
  return {
    stage: hook.stage,
    name: hook.name,
    run(input, ctx) {
      if (ctx.kind !== kind) {
        return Promise.reject(
          new Error(`hook ${hook.stage}/${hook.name} was given a ${ctx.kind} context`),
        );
      }
      return hook.run(input, ctx as ContextOf<S>);
    },
  };
}
