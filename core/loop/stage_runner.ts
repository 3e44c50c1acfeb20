/**
 * The one way to run a stage: its in-process hooks merged with the
 * executables of `hooks.d/<stage>/` (an executable replaces a built-in of the
 * same basename), with the child environment, working directory, timeout,
 * log and OS sandbox fixed by the harness. The sandbox is required: there is
 * no stage whose executable hooks run outside the effect floor.
 *
 * @module
 */
import type { ChildEnvRequest, ChildSandbox } from "../base/mod.ts";
import type { Snapshot } from "../discovery/mod.ts";
import { chainFor, type ChainResult, runChain } from "./chain.ts";
import type { ContextOf, StageHook } from "./stage.ts";

/**
 * Stages whose executable hooks may talk to the user: `auth-set` (a login or key prompt)
 * and `tool_exec` (approval gates). When hs runs on a terminal their hooks get it; every
 * other stage's hooks run without one.
 */
export const INTERACTIVE_STAGES: readonly string[] = ["auth-set", "tool_exec"];

/** What the runner is built from (the harness supplies it). */
export interface StageRunnerOptions {
  /** In-process hooks registered for a stage. */
  hooks(stage: string): StageHook[];
  /** The environment of a child process. */
  env(req: ChildEnvRequest): Record<string, string>;
  /** The OS sandbox of executable hooks. */
  sandbox: ChildSandbox;
  /** One executable hook's time limit (HARNESS_HOOK_TIMEOUT). */
  timeoutMs: number;
  /** HARNESS_LOG. */
  log(line: string): void;
  /** Most bytes one executable hook may print (HARNESS_HOOK_OUTPUT_LIMIT). */
  maxOutputBytes?: number;
  /** True when hs runs on a terminal: hooks of {@link INTERACTIVE_STAGES} get it. */
  terminal?: boolean;
}

/** Where and for whom one stage runs. */
export interface StagePlace {
  /** The discovery snapshot whose `hooks.d/<stage>/` executables take part. */
  snapshot: Snapshot;
  /** Working directory of executable hooks (HARNESS_CWD). */
  cwd: string;
  /** Aborts the stage. */
  signal: AbortSignal;
  /** The session directory (HARNESS_SESSION), if any. */
  session?: string;
  /** HARNESS_PROVIDER. */
  provider?: string;
  /** HARNESS_MODEL. */
  model?: string;
  /** Extra variables for this stage's hooks (e.g. HARNESS_AUTH_PROVIDER). */
  extraEnv?: Record<string, string>;
  /** A longer limit for stages that wait on a person (auth-set). */
  timeoutMs?: number;
  /** Called after an executable hook ran (the session may have changed on disk). */
  onExecutable?(): void;
}

/** Runs stages. */
export class StageRunner {
  #o: StageRunnerOptions;

  /** Creates a runner from the harness's hooks, environment and sandbox. */
  constructor(opts: StageRunnerOptions) {
    this.#o = opts;
  }

  /** True when the stage has no hook at all (nothing to run). */
  isEmpty(stage: string, snapshot: Snapshot): boolean {
    return this.#o.hooks(stage).length === 0 && !(snapshot.hooks.get(stage)?.size);
  }

  /** Runs `stage`'s chain on `input`. Never throws: failures come back as the error context. */
  run<S extends string>(
    stage: S,
    input: Record<string, unknown>,
    ctx: ContextOf<S>,
    at: StagePlace,
  ): Promise<ChainResult> {
    const execs = new Map<string, string>();
    for (const [n, f] of at.snapshot.hooks.get(stage) ?? []) execs.set(n, f.path);
    // only executable hooks see the environment: a chain of in-process hooks builds none
    const env = execs.size === 0 ? {} : this.#o.env({
      stage,
      session: at.session,
      provider: at.provider,
      model: at.model,
      cwd: at.cwd,
    });
    return runChain(stage, input, chainFor(this.#o.hooks(stage), execs), ctx, {
      env: at.extraEnv && execs.size > 0 ? { ...env, ...at.extraEnv } : env,
      cwd: at.cwd,
      timeoutMs: at.timeoutMs ?? this.#o.timeoutMs,
      signal: at.signal,
      log: this.#o.log,
      executableRan: at.onExecutable ?? (() => {}),
      sandbox: this.#o.sandbox,
      maxOutputBytes: this.#o.maxOutputBytes,
      terminal: this.#o.terminal === true && INTERACTIVE_STAGES.includes(stage),
    });
  }
}
