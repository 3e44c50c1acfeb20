/**
 * The tool contract: what a tool is (its definition and schema), what a call
 * receives (its context, settings, file system and effects, sub-agents) and what it
 * returns; and the tool as the kernel resolves it (definition, owner, schema).
 *
 * @module
 */
import type { JsonSchema, Owner } from "./common.ts";
import type { SkillInfo } from "./skill.ts";

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
  /** The editor's open files, when a front end has one (`hs acp`); see {@link EditorFiles}. */
  editor?: EditorFiles;
}

/**
 * An editor's view of the files it has open (`hs acp` with a client that offers the `fs/*`
 * methods). The file tools read and write through the floor's own file access first — the
 * path is allowed and contained, or the call fails — and only then ask the editor: its text of
 * the file (an open buffer, saved or not) replaces what was read, and it is told what was
 * written so its buffer follows.
 */
export interface EditorFiles {
  /** The editor's text of `path`; undefined: the disk's stands. */
  read(path: string, sessionDir: string): Promise<string | undefined>;
  /** `path` now holds `text` (written by hs). */
  wrote(path: string, text: string, sessionDir: string): Promise<void>;
}

/** A request for a child agent loop. */
export interface SubAgentRequest {
  /** The task given to the child agent (its first user message). */
  prompt: string;
  /** A named bot of a behavior pack to run as (its prompt, behavior and tool ceiling). */
  bot?: string;
  /** A named agent of another layout (`.claude/agents/<name>.md`) to run as. */
  agent?: string;
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

/** What is wrong with a value a tool returned as its {@link ToolResult}; undefined when nothing. */
export function toolResultProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `got ${
      value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`
    }`;
  }
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content)) return "it has no content list";
  const bad = content.findIndex((c) =>
    c === null || typeof c !== "object" || (c as ToolContent).type !== "text" ||
    typeof (c as ToolContent).text !== "string"
  );
  if (bad >= 0) return `content[${bad}] is not a {type: "text", text} block`;
  const isError = (value as { isError?: unknown }).isError;
  if (isError !== undefined && typeof isError !== "boolean") return "isError is not a boolean";
  return undefined;
}

/**
 * The result of a tool as the kernel passes it on: `value` when it has the contract's shape,
 * else an error result naming the tool and what was wrong (the turn goes on; the audit
 * records an error).
 */
export function checkedToolResult(tool: string, value: unknown): ToolResult {
  const problem = toolResultProblem(value);
  if (problem === undefined) return value as ToolResult;
  return {
    content: [{
      type: "text",
      text: `error: tool '${tool}' returned a malformed result (${problem}); ` +
        `a tool returns {content: [{type: "text", text: "..."}], isError?: boolean}`,
    }],
    isError: true,
  };
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
