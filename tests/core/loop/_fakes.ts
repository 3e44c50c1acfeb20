/**
 * Test support for the loop's unit tests: an empty discovery snapshot, a
 * canonical "wire" adapter (native responses are canonical turns), a scripted
 * model provider, a {@link TurnApi} over a real session in a temp directory,
 * and a {@link TurnHost} with in-process services only.
 */
import {
  type AssistantTurn,
  compactHooks,
  Continuation,
  type EffectCall,
  type HarnessEvent,
  loopHooks,
  type ModelProvider,
  parseConfig,
  type ProtocolAdapter,
  type ResolvedTool,
  resolveHooks,
  Session,
  type Snapshot,
  StageRunner,
  textResult,
  type ToolCall,
  Turn,
  type TurnApi,
  type TurnHost,
  unconfined,
  type Usage,
} from "../../../core/mod.ts";
import { join } from "node:path";

/** A snapshot with no sources at all. */
export function emptySnapshot(): Snapshot {
  return {
    sources: [],
    allSources: [],
    skipped: [],
    tools: new Map(),
    hooks: new Map(),
    commands: new Map(),
    providers: new Map(),
    promptFiles: [],
    skillRoots: [],
    authFiles: [],
    untrusted: [],
  };
}

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

/** An answer of the scripted model: text, or tool calls. */
export function answer(text: string, calls: ToolCall[] = [], usage = NO_USAGE): AssistantTurn {
  return {
    blocks: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map((c) => ({ type: "tool_call" as const, ...c })),
    ],
    stop: calls.length ? "tool_calls" : "end",
    usage,
    model: "fake-1",
  };
}

/** The adapter of the "canonical" protocol: messages and tools pass through unchanged. */
export const canonicalAdapter: ProtocolAdapter = {
  protocol: "canonical",
  buildMessages: (c) => c,
  buildTools: (t) => t,
  send: () => Promise.reject(new Error("not used: the fake provider answers")),
  parseResponse: (native) => native as AssistantTurn,
};

/**
 * A model provider that replays answers and records the payloads it was sent; an Error
 * among the answers is thrown by its request.
 */
export function scriptedProvider(
  answers: (AssistantTurn | Error)[],
): ModelProvider & { payloads: Record<string, unknown>[] } {
  const payloads: Record<string, unknown>[] = [];
  return {
    name: "fake",
    description: "scripted",
    protocol: "canonical",
    payloads,
    ready: () => Promise.resolve({ ready: true, reason: "always" }),
    defaultModel: () => Promise.resolve("fake-1"),
    send(payload) {
      payloads.push(payload as Record<string, unknown>);
      const next = answers.shift();
      if (!next) return Promise.reject(new Error("the fake model has no more answers"));
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve(next);
    },
  };
}

/** A TurnApi over a real session, recording what the hooks asked of it. */
export class FakeTurn implements TurnApi {
  readonly session: Session;
  readonly provider = "fake";
  readonly model = "fake-1";
  readonly signal = new AbortController().signal;
  readonly continuation: Continuation = new Continuation();
  readonly events: HarnessEvent[] = [];
  readonly executed: ToolCall[] = [];
  readonly noted: { call: ToolCall; result: string; error: boolean }[] = [];
  usage: Usage = { input_tokens: 0, output_tokens: 0 };
  #provider: ModelProvider;

  constructor(dir: string, provider: ModelProvider = scriptedProvider([])) {
    this.session = Session.create(dir, { cwd: dir, model: "fake-1", provider: "fake" });
    open.push(this.session);
    this.#provider = provider;
  }

  adapter(): ProtocolAdapter {
    return canonicalAdapter;
  }
  modelProvider(): ModelProvider {
    return this.#provider;
  }
  emit(event: HarnessEvent): void {
    this.events.push(event);
  }
  toolSchemas() {
    return Promise.resolve([{ name: "echo", description: "echo", input_schema: {} }]);
  }
  executeTool(call: ToolCall) {
    this.executed.push(call);
    return Promise.resolve({ result: `ran ${call.name}`, error: false });
  }
  systemParts() {
    return Promise.resolve(["SYSTEM", "", "AGENTS"]);
  }
  skills() {
    return Promise.resolve([
      { name: "s1", description: "first skill", path: "/x/SKILL.md", source: "t" },
    ]);
  }
  noteResult(call: ToolCall, result: string, error: boolean): void {
    this.noted.push({ call, result, error });
  }
  noteUsage(u: Usage): void {
    this.usage.input_tokens += u.input_tokens;
    this.usage.output_tokens += u.output_tokens;
  }
}

/** A TurnHost with the built-in hooks, an `echo` tool and a recording dispatcher. */
export function fakeHost(
  cwd: string,
  opts: {
    env?: Record<string, string>;
    tools?: Map<string, ResolvedTool>;
    snapshot?: () => Snapshot;
  } = {},
): TurnHost & { dispatched: EffectCall[]; logs: string[] } {
  const dispatched: EffectCall[] = [];
  const logs: string[] = [];
  const config = parseConfig(opts.env ?? {});
  const tools = opts.tools ?? new Map<string, ResolvedTool>([[
    "echo",
    {
      def: {
        name: "echo",
        description: "echo",
        inputSchema: {},
        execute: (input) => Promise.resolve(textResult(`echo ${JSON.stringify(input)}`)),
      },
      owner: { kind: "builtin", id: "test" },
      schema: { name: "echo", description: "echo", input_schema: {} },
    },
  ]]);
  const all = [...resolveHooks, ...loopHooks, ...compactHooks];
  return {
    dispatched,
    logs,
    config,
    cwd,
    stages: new StageRunner({
      hooks: (stage) => all.filter((h) => h.stage === stage),
      env: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
      sandbox: unconfined,
      timeoutMs: 5000,
      log: (l) => logs.push(l),
    }),
    log: (l) => logs.push(l),
    snapshot: opts.snapshot ?? emptySnapshot,
    protocol: (name) => (name === "canonical" ? canonicalAdapter : undefined),
    tools: () => Promise.resolve(tools),
    dispatch: (call, core) => {
      dispatched.push(call);
      return core(call.input);
    },
    childEnv: () => ({}),
    promptSources: () => [{ id: "base", order: 0, render: () => "BASE PROMPT" }],
    boundary: () => Promise.resolve(undefined),
    skills: () => [],
    runAgent: () => Promise.resolve({ output: "child", sessionDir: "", error: false }),
  };
}

/**
 * A turn of the scripted model (provider `fake`, model `fake-1`, principal `main`) on `host`,
 * in a new session under `dir/sessions` (unless `extra` names one); `extra` adds to (or
 * replaces) the turn's init.
 */
export function scriptedTurn(
  host: TurnHost,
  dir: string,
  answers: (AssistantTurn | Error)[],
  extra: Partial<ConstructorParameters<typeof Turn>[0]> = {},
): { turn: Turn; provider: ReturnType<typeof scriptedProvider>; session: Session } {
  const provider = scriptedProvider(answers);
  const session = extra.session ??
    Session.create(join(dir, "sessions"), { cwd: dir, model: "fake-1", provider: "fake" });
  const turn = new Turn({
    host,
    session,
    provider: "fake",
    model: "fake-1",
    modelProvider: provider,
    principal: "main",
    signal: new AbortController().signal,
    ...extra,
  });
  return { turn, provider, session };
}

const open: Session[] = [];

/** Runs `fn` with a fresh temp directory; sessions made there are closed, the directory removed. */
export async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hs-loop-" });
  try {
    await fn(dir);
  } finally {
    for (const s of open.splice(0)) s.closeStream();
    await Deno.remove(dir, { recursive: true });
  }
}
