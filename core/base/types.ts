/**
 * Shared types of the kernel: tools, the canonical conversation, canonical
 * stream events and the provider (protocol adapter) seam.
 *
 * These are plain TypeScript types; zod schemas live at the boundaries that
 * parse untrusted data (config files, wire data, plugin input).
 *
 * @module
 */

/** Effect floor presets (`--floor`, `HARNESS_FLOOR`, `floor.json` `preset`). */
export const FLOOR_PRESETS = ["read-only", "workspace", "full"] as const;

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON Schema object (kept opaque: the model and the tool agree on it). */
export type JsonSchema = Record<string, unknown>;

/** Who registered something. Every registration has exactly one owner. */
export type Owner =
  | { kind: "builtin"; id: string }
  | { kind: "executable"; path: string }
  | { kind: "runtime-plugin"; id: string }
  | { kind: "behavior"; pack: string; bot: string };

/** Human-readable form of an owner, for listings and audit events. */
export function ownerLabel(owner: Owner): string {
  switch (owner.kind) {
    case "builtin":
      return `builtin:${owner.id}`;
    case "executable":
      return owner.path;
    case "runtime-plugin":
      return `plugin:${owner.id}`;
    case "behavior":
      return `behavior:${owner.pack}/${owner.bot}`;
  }
}

// ---------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------

/** One content block of a tool result (seed 002 shape). */
export type ToolContent = { type: "text"; text: string };

/** What a tool returns. `isError` marks the result as an error for the model. */
export interface ToolResult {
  /** The result's content blocks (text). */
  content: ToolContent[];
  /** True when the call failed; the model sees the result as an error. */
  isError?: boolean;
  /**
   * Annotations guards put on the call (e.g. "redacted"). They accumulate: a later guard
   * cannot drop an earlier guard's mark.
   */
  marks?: string[];
}

/** Everything a tool implementation may use while it runs. */
export interface ToolContext {
  /** The session's working directory (HARNESS_CWD). */
  cwd: string;
  /** The `HARNESS_*` environment for child processes (no provider credentials). */
  env: Record<string, string>;
  /** Aborted when the turn is cancelled or the owning plugin stops. */
  signal: AbortSignal;
  /** Session directory, or "" outside a session. */
  sessionDir: string;
  /** The id of this call (the model's tool call id). */
  callId: string;
  /** Appends a line to HARNESS_LOG (never to the model). */
  log(line: string): void;
  /**
   * Runs a child agent loop (used by the `agent` tool). Present only when the
   * kernel can run sub-agents.
   */
  runAgent?(request: SubAgentRequest): Promise<SubAgentResult>;
  /** Skills visible from this session (used by the `skill` tool). */
  skills?(): Promise<SkillInfo[]>;
  /**
   * The effect floor's runtime: file access narrowed to the effect policy and the
   * OS sandbox for child processes. Absent: the tool runs with the process's rights.
   */
  effects?: ToolEffects;
  /** The user's settings tools honour (`HARNESS_TOOL_TIMEOUT`, `HARNESS_READ_LIMIT`). */
  settings?: ToolSettings;
}

/** Settings the built-in tools read (parsed once from `HARNESS_*`, see HarnessConfig). */
export interface ToolSettings {
  /** Default timeout of the `bash` tool. */
  toolTimeoutMs: number;
  /** Lines `read_file` returns without offset/limit. */
  readLimit: number;
  /** Most bytes of one tool result kept in the conversation (the rest is saved beside the session). */
  resultLimit?: number;
  /** Most bytes of one call's output saved beside the session (past it the command is stopped). */
  resultFileLimit?: number;
}

/** File facts the file tools need. */
export interface ToolFileInfo {
  /** True for a regular file. */
  isFile: boolean;
  /** True for a directory. */
  isDirectory: boolean;
  /** Size in bytes. */
  size: number;
  /** Unix permission bits, or null where the platform has none. */
  mode: number | null;
}

/** File access of the built-in file tools (a permission-narrowed worker under a floor). */
export interface ToolFs {
  /** Follows symlinks; undefined when missing. */
  stat(path: string): Promise<ToolFileInfo | undefined>;
  /** Reads the whole file (within the policy's read paths). */
  readFile(path: string): Promise<Uint8Array>;
  /** Atomic replace (temp file + rename), creating parent directories. */
  writeFileAtomic(path: string, data: Uint8Array): Promise<void>;
}

/** A child process to start. */
export interface SpawnSpec {
  /** The program to run. */
  command: string;
  /** The arguments of the command. */
  args: string[];
  /** The complete environment of the child. */
  env: Record<string, string>;
  /** The working directory of the child. */
  cwd: string;
  /**
   * Paths the program's own installation needs, readable inside the OS sandbox beyond the
   * effect policy (an MCP server's package, its runtime's cache).
   */
  readOnly?: string[];
  /**
   * Variables the user configured for this program by name (an MCP server's `env`): they
   * reach it although the policy's env list is narrower; the policy's env denials still win.
   */
  keepEnv?: string[];
  /**
   * The child is to share the user's terminal (an interactive hook): the OS sandbox keeps
   * it in the caller's session and refuses terminal input injection (TIOCSTI) by seccomp,
   * or, where it cannot, gives it a session of its own and clears this flag.
   */
  terminal?: boolean;
  /**
   * Set by the OS sandbox: the prepared command gives the program a session of its own
   * and takes everything it started down when it is killed (bubblewrap's `--new-session`,
   * `--die-with-parent` and PID namespace), so the caller needs no `setsid` around it.
   */
  ownSession?: boolean;
}

/** Puts child processes in the OS sandbox of the effect policy, or refuses them. */
export interface ChildSandbox {
  /** The command line to run instead, or a refusal with the reason and fix. */
  prepare(spec: SpawnSpec, what: string): Promise<SpawnSpec | { refused: string }>;
}

/** The effect floor's runtime handed to tools. */
export interface ToolEffects {
  /** File access narrowed to the effect policy. */
  fs: ToolFs;
  /** The OS sandbox child processes must be prepared with. */
  sandbox: ChildSandbox;
}

/** A request for a child agent loop. */
export interface SubAgentRequest {
  /** The task given to the child agent (its first user message). */
  prompt: string;
  /** A named bot of a behavior pack to run as (its prompt, behavior and tool ceiling). */
  bot?: string;
  /** The model to use (default: the parent's). */
  model?: string;
  /** The provider to use (default: the parent's). */
  provider?: string;
  /**
   * The tools the child asks for: it holds these ∩ its bot's `tools` ∩ its parent's ceiling
   * (absent: all its bot's and its parent's allow). Ceilings only narrow.
   */
  tools?: string[];
  /** Aborts the child loop. */
  signal: AbortSignal;
}

/** The final answer of a child agent loop. */
export interface SubAgentResult {
  /** The child's final answer. */
  output: string;
  /** The child's session directory. */
  sessionDir: string;
  /** True when the child loop ended in an error. */
  error: boolean;
}

/** A tool definition as registered by a runtime plugin (seed 002). */
export interface ToolDefinition {
  /** The name the model calls the tool by (unique among tools). */
  name: string;
  /** What the tool does, shown to the model. */
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: JsonSchema;
  /** True when the tool has no effects (may run concurrently). */
  readOnly?: boolean;
  /**
   * True when the tool only touches state local to the session (it may then skip approval
   * in a plan mode). External tools (connectors, MCP) are never session-local.
   */
  sessionLocal?: boolean;
  /**
   * The effect point the seam dispatches this tool at (guards and rules match on it);
   * default: from the name (`bash` → shell, `read_file` → read, …, else tool). MCP tools
   * are `mcp`.
   */
  point?: "read" | "write" | "edit" | "shell" | "mcp" | "agent" | "tool";
  /** One line for `hs tools`; defaults to the first line of `description`. */
  describe?: string;
  /** Runs the tool; errors the model should see are returned with `isError`, not thrown. */
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/** Tool schema in the reference's provider-neutral shape (`tool --schema`). */
export interface ToolSchema {
  /** The tool's name. */
  name: string;
  /** The tool's description for the model. */
  description: string;
  /** JSON Schema of the input object. */
  input_schema: JsonSchema;
}

/** Convenience: a text result. */
export function textResult(text: string, isError = false): ToolResult {
  return { content: [{ type: "text", text }], isError };
}

/** Joins the text blocks of a tool result. */
export function resultText(result: ToolResult): string {
  return result.content.map((c) => c.text).join("");
}

// ---------------------------------------------------------------------------
// Skills
// ---------------------------------------------------------------------------

/** A skill as seen by the catalog and the `skill` tool. */
export interface SkillInfo {
  /** The skill's name (how the `skill` tool loads it). */
  name: string;
  /** When to use the skill (from its frontmatter), shown in the catalog. */
  description: string;
  /** Absolute path of SKILL.md, or "" for runtime skills. */
  path: string;
  /** Absolute directory of the skill, if any (resources are listed from it). */
  directory?: string;
  /** The body (after frontmatter). Loaded lazily for file skills. */
  body?: string;
  /** Where it comes from: a skills directory, `pack:<name>` or the owning plugin. */
  source: string;
}

// ---------------------------------------------------------------------------
// Canonical conversation (parsed from the session's markdown messages)
// ---------------------------------------------------------------------------

/** A block of an assistant message. */
export type AssistantBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string; signature: string }
  | { type: "tool_call"; id: string; name: string; input: unknown };

/** One message of a session, provider-neutral. */
export type ConversationMessage =
  | {
    role: "user";
    seq: number;
    text: string;
    /** True for the summary a compaction wrote in place of older messages (see docs/sessions.md). */
    summary?: boolean;
  }
  | {
    role: "assistant";
    seq: number;
    blocks: AssistantBlock[];
    model?: string;
    provider?: string;
    stop?: StopReason;
  }
  | {
    role: "tool_result";
    seq: number;
    callId: string;
    tool: string;
    error: boolean;
    text: string;
  };

/** Canonical stop reasons (PROTOCOLS `.stream` `stop.reason`). */
export type StopReason = "end" | "tool_calls" | "length" | "error" | string;

/**
 * Token usage of one model request. `input_tokens` counts the input not read from or written
 * to a prompt cache; the whole prompt is the sum of the three input fields.
 */
export interface Usage {
  /** Input tokens not read from or written to the prompt cache. */
  input_tokens: number;
  /** Tokens of the answer. */
  output_tokens: number;
  /** Input tokens read from the provider's prompt cache (absent: none reported). */
  cache_read_input_tokens?: number;
  /** Input tokens written to the prompt cache (Anthropic `cache_creation_input_tokens`). */
  cache_creation_input_tokens?: number;
}

/** A model's context window and the output a request asks for (in tokens). */
export interface ModelLimits {
  /** The context window: prompt and answer together. */
  context: number;
  /** The `max_tokens` a request asks for. */
  maxOutput: number;
  /** The most tool calls one response may ask for (a provider's `.conf` `max_tool_calls=`). */
  maxToolCalls?: number;
  /** Where `maxToolCalls` is set, for the message of a response over it (e.g. a file). */
  maxToolCallsFrom?: string;
}

/** Prices of a model in US dollars per million tokens (`.conf` `price_*=`). */
export interface Pricing {
  /** Price of uncached input tokens. */
  input: number;
  /** Price of output tokens. */
  output: number;
  /** Input read from the prompt cache (default: the input price). */
  cacheRead?: number;
  /** Input written to the prompt cache (default: the input price). */
  cacheWrite?: number;
}

/** A model request's answer in canonical form (what `receive` saves). */
export interface AssistantTurn {
  /** The answer's text, thinking and tool call blocks, in order. */
  blocks: AssistantBlock[];
  /** Why the model stopped. */
  stop: StopReason;
  /** Tokens used by the request. */
  usage: Usage;
  /** The model that answered (as the provider reports it). */
  model: string;
}

// ---------------------------------------------------------------------------
// Canonical stream events
// ---------------------------------------------------------------------------

/**
 * Events a provider emits while a model request streams. `recorded` marks a
 * delta already written to `.stream` (by an executable provider itself).
 */
export type ProviderEvent =
  | { type: "text"; text: string; recorded?: boolean }
  | { type: "thinking"; text: string; recorded?: boolean }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; id: string; json: string }
  | { type: "tool_call_end"; index: number; id: string; name: string; input: unknown }
  | { type: "usage"; usage: Usage }
  | { type: "stop"; reason: StopReason }
  | { type: "retry"; attempt: number; delayMs: number; reason: string }
  | { type: "error"; message: string };

/** Events the kernel emits around the loop (on top of provider events). */
export type LoopEvent =
  | { type: "session"; id: string; dir: string }
  | { type: "stage"; stage: string }
  | { type: "turn_start"; turn: number; message: string }
  | { type: "round_start"; round: number }
  | { type: "tool_start"; id: string; name: string; input: unknown }
  | { type: "tool_done"; id: string; name: string; error: boolean; result: string; ms: number }
  | { type: "round_end"; round: number; stop: StopReason }
  | { type: "turn_end"; output: string; error: boolean }
  | { type: "notice"; message: string }
  /** A compaction begins: `messages` older messages (about `tokens` tokens) are summarized. */
  | { type: "compact_start"; reason: CompactReason; messages: number; tokens: number }
  /** A compaction ended: the next request holds about `after` tokens instead of `before`. */
  | {
    type: "compact_done";
    reason: CompactReason;
    messages: number;
    before: number;
    after: number;
    /** Seq of the summary message written to the session. */
    summarySeq: number;
  }
  /** A behavior's note (seed 000 §6): origin notes are shown; the others are model context. */
  | { type: "note"; kind: "origin" | "ambient" | "activating"; from: string; message: string }
  /** A pack state accepted an entry (its revision moved). */
  | {
    type: "state";
    plugin: string;
    scope: string;
    revision: number;
    by: "method" | "host";
    method?: string;
  };

/**
 * Why a session is compacted: the next request would pass the threshold, the user asked
 * (`/compact`), or the provider refused a request as too long.
 */
export type CompactReason = "threshold" | "manual" | "overflow";

/** Every event on the bus. */
export type HarnessEvent = ProviderEvent | LoopEvent;

// ---------------------------------------------------------------------------
// Providers: protocol adapters and model providers
// ---------------------------------------------------------------------------

/** Where and how to reach a model endpoint. Credentials never leave this object. */
export interface Endpoint {
  /** Provider name (e.g. "anthropic", a `.conf` variant name). */
  name: string;
  /** The endpoint's URL. */
  url: string;
  /** API key, if any. Never logged, never exported to tools. */
  apiKey?: string;
  /** The model to request. */
  model: string;
  /** The `max_tokens` of a request. */
  maxTokens: number;
  /** Extra HTTP headers (`header.<Name>=` in `.conf`). */
  headers: Record<string, string>;
  /** Idle timeout in ms: the longest wait for any data (headers, then between chunks). */
  timeoutMs: number;
  /** Longest wait in ms for the first content of a streamed answer (keep-alives do not count). */
  firstTokenTimeoutMs?: number;
  /** Longest time in ms for the whole answer, retries included. */
  deadlineMs?: number;
  /** Most bytes of response body accepted. */
  maxResponseBytes?: number;
  /** Whether to stream (SSE). */
  stream: boolean;
  /**
   * Mark prompt-cache breakpoints (Anthropic `cache_control`; default true). `.conf`
   * `cache=never` turns it off for servers that reject the field.
   */
  cache?: boolean;
}

/** The `send` stage payload: native messages and tools plus the system prompt. */
export interface SendPayload {
  /** The conversation in the protocol's native message shape. */
  messages: unknown[];
  /** The tools in the protocol's native shape. */
  tools: unknown[];
  /** The system prompt. */
  system: string;
  /** The model to request, when the stage chose one. */
  model?: string;
  /** Further fields a `send` hook may set (e.g. `stream`), read by the providers that know them. */
  [key: string]: unknown;
}

/** Options of one model request. */
export interface SendOptions {
  /** Receives the stream events of the request as they arrive. */
  emit(event: ProviderEvent): void;
  /** Aborts the request. */
  signal: AbortSignal;
  /** The session of the request (executable providers get it as HARNESS_SESSION / HARNESS_CWD). */
  session?: { dir: string; cwd: string };
}

/**
 * A wire protocol adapter (Anthropic Messages, OpenAI Chat, OpenAI Responses).
 * Pure request/response mapping plus the HTTP exchange.
 */
export interface ProtocolAdapter {
  /** "anthropic" | "openai" | "openai-responses" */
  readonly protocol: string;
  /** Native message list from the canonical conversation. */
  buildMessages(conversation: ConversationMessage[]): unknown[];
  /** Native tool list from tool schemas (stable order is the caller's). */
  buildTools(tools: ToolSchema[]): unknown[];
  /** Performs the request; resolves to the native response JSON (reassembled when streamed). */
  send(payload: SendPayload, endpoint: Endpoint, options: SendOptions): Promise<unknown>;
  /** Canonical form of a native response. Throws a ProviderError on an unusable response. */
  parseResponse(native: unknown): AssistantTurn;
}

/** Readiness of a provider, with the reason shown by `hs providers`. */
export interface Readiness {
  /** True when the provider can take requests. */
  ready: boolean;
  /** Why (e.g. the missing key and how to set it). */
  reason: string;
}

/** A model provider registered in the models registry. */
export interface ModelProvider {
  /** The provider's name (`--provider`). */
  name: string;
  /** One line for `hs providers`. */
  description: string;
  /** Protocol whose message/tool shapes this provider uses. */
  protocol: string;
  /** Whether requests can be sent now (e.g. a key is set), and why not. */
  ready(): Promise<Readiness>;
  /** Default model (`--defaults` / `.conf` `model=`). */
  defaultModel(): Promise<string>;
  /** Sends one request and returns the native response JSON. */
  send(payload: SendPayload, model: string, options: SendOptions): Promise<unknown>;
  /**
   * What this provider knows of a model's limits (`.conf` `context=` / `max_tokens=`,
   * `--defaults` of an executable); the rest comes from the defaults of known models.
   */
  limits?(model: string): Promise<Partial<ModelLimits>>;
  /** Prices of a model, when configured (`.conf` `price_input=` …). */
  pricing?(model: string): Promise<Pricing | undefined>;
}

/** A model offered by a provider (seed 002 `ctx.models.register(provider, models)`). */
export interface ModelDefinition {
  /** The model id sent to the provider. */
  id: string;
  /** A display name. */
  name?: string;
  /** The context window in tokens (used when no `.conf` sets one). */
  contextWindow?: number;
  /** The most output tokens a request may ask for. */
  maxOutputTokens?: number;
}

// ---------------------------------------------------------------------------
// Audit (seed 002): what sinks receive
// ---------------------------------------------------------------------------

/** A runtime audit event (seed 002): never carries input/output bodies or credentials. */
export type AuditEvent =
  | {
    type: "permission";
    time: string;
    /**
     * "decision": what the floor decided (allow / ask / deny); "response": how an `ask`
     * was answered (allow / deny), right after its decision record.
     */
    record: "decision" | "response";
    tool: string;
    rule: string;
    principal: string;
    callId: string;
    decision: "allow" | "ask" | "deny";
  }
  | {
    type: "tool_execution";
    time: string;
    tool: string;
    owner: string;
    callId: string;
    durationMs: number;
    outcome: "ok" | "error" | "refused";
  };

/** An audit sink: best-effort observer (or fail closed, when registered so). */
export type AuditSink = (event: AuditEvent) => void | Promise<void>;

// ---------------------------------------------------------------------------
// Contributions the kernel consumes directly
// ---------------------------------------------------------------------------

/** A section of the system prompt, refreshed every turn. */
export interface PromptSource {
  /** Identifies the section (unique among prompt sections). */
  id: string;
  /** Lower first. Built-in sections use 0-99, user sections 100+. */
  order?: number;
  /** Renders the section's text (called every turn). */
  render(): Promise<string> | string;
}

/** An auth provider (seed 002 `ctx.auth.register`). */
export interface AuthProvider {
  /** Identifies the auth provider (unique among them). */
  id: string;
  /** Returns the credential for a provider name, or undefined. */
  resolve(provider: string): Promise<string | undefined>;
}

/** What the environment of a child process (hook, tool, provider, command) depends on. */
export interface ChildEnvRequest {
  /** HARNESS_STAGE. */
  stage: string;
  /** HARNESS_SESSION (a session directory), "" outside a loop. */
  session?: string;
  /** HARNESS_PROVIDER. */
  provider?: string;
  /** HARNESS_MODEL. */
  model?: string;
  /** HARNESS_CWD (default: the harness's working directory). */
  cwd?: string;
}

/** A tool ready to be called: its definition, its owner and the schema the model sees. */
export interface ResolvedTool {
  /** The tool as its plugin registered it. */
  def: ToolDefinition;
  /** The plugin that registered it. */
  owner: Owner;
  /** The schema sent to the model. */
  schema: ToolSchema;
}
