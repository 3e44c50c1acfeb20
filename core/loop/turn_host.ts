/**
 * What the built-in stage hooks can reach while a turn runs.
 *
 * @module
 */
import type { Session } from "../session/session.ts";
import type {
  HarnessEvent,
  ModelProvider,
  ProtocolAdapter,
  SkillInfo,
  ToolSchema,
  Usage,
} from "../base/types.ts";
import type { Continuation } from "./continuation.ts";

/** A provider as seen by resolution and `hs providers`. */
export interface ProviderInfo {
  name: string;
  provider: ModelProvider;
  /** Where it came from: "builtin", a `.conf` path, an executable path, "plugin:<id>". */
  origin: string;
  /** Whether auto-detection may pick it. */
  autodetect: boolean;
  /** Model ids it declared (`ctx.models.register(provider, models)`); selecting one picks it. */
  models?: string[];
}

/** A tool call from the model. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** The services of a running turn. */
export interface TurnApi {
  readonly session: Session;
  readonly provider: string;
  readonly model: string;
  readonly signal: AbortSignal;
  readonly continuation: Continuation;
  /** Protocol adapter of the active provider. */
  adapter(): ProtocolAdapter;
  /** The active model provider. */
  modelProvider(): ModelProvider;
  emit(event: HarnessEvent): void;
  /** Tool schemas for this round, stable order. */
  toolSchemas(): Promise<ToolSchema[]>;
  /** Runs one tool call through the effect seam. */
  executeTool(call: ToolCall): Promise<{ result: string; error: boolean }>;
  /** System prompt parts in order (built-in sections, AGENTS.md, prompts/*.md). */
  systemParts(): Promise<string[]>;
  skills(): Promise<SkillInfo[]>;
  /** Reports a result that did not come from executeTool (a gate answered the call). */
  noteResult(call: ToolCall, result: string, error: boolean): void;
  /** Adds a model request's usage to the turn's total. */
  noteUsage(usage: Usage): void;
}

/** The services of the `resolve` stage. */
export interface ResolveApi {
  providers(): Promise<ProviderInfo[]>;
  /** provider/model from the most local settings.conf. */
  settings(): { provider?: string; model?: string };
}
