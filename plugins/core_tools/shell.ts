/**
 * Runs `bash -c <command>` in its own process group (via `setsid`) with an
 * explicit environment, combined stdout+stderr, a timeout and an abort
 * signal. The whole group is killed on timeout, on abort and when the shell
 * exits, so background children never outlive the call.
 *
 * @module
 */
import {
  type ChildSandbox,
  killProcessGroup,
  settlesWithin,
  type SpawnSpec,
  type SpillOptions,
  systemBinary,
} from "../../core/mod.ts";
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits, OutputSpool } from "./output_cap.ts";

/** What to run. */
export interface ShellOptions {
  /** The script given to `bash -c`. */
  command: string;
  /** Working directory (must exist). */
  cwd: string;
  /** The child's whole environment (nothing is inherited from this process). */
  env: Record<string, string>;
  /** Kill the group after this many milliseconds. */
  timeoutMs: number;
  /** Kills the group when aborted. */
  signal: AbortSignal;
  /** Output caps (default 100 KB / 2000 lines). */
  limits?: OutputLimits;
  /** Where the whole output goes when it is over the caps (the session's `outputs/`). */
  spill?: SpillOptions;
  /** The effect floor's OS sandbox (bubblewrap); absent = run with the process's rights. */
  sandbox?: ChildSandbox;
}

/** How a command ended. */
export interface ShellOutcome {
  /** Combined stdout and stderr (truncated in the middle past the limits). */
  output: string;
  /** Exit code (128 + signal number when killed). */
  code: number;
  /** True when the timeout killed the group. */
  timedOut: boolean;
  /** True when the signal killed the group (or was aborted before the start). */
  aborted: boolean;
  /** Set when the sandbox refused to start the command (the reason, with a fix). */
  refused?: string;
  /** True when the saved output file reached its limit and the group was stopped. */
  overflow?: boolean;
}

/** How long to wait for the output pipe to close after the shell exited. */
const DRAIN_GRACE_MS = 2000;

/**
 * The shell and `setsid` hs runs itself: from the fixed system directories only
 * (`systemBinary`), never from a PATH entry the workspace or the agent could write.
 */
export function findExecutable(name: string): string | undefined {
  return systemBinary(name);
}

/**
 * Runs the command and resolves once the shell exited and its output was collected.
 * Throws only when bash cannot be started (missing binary, bad cwd).
 */
export async function runShell(options: ShellOptions): Promise<ShellOutcome> {
  if (options.signal.aborted) return { output: "", code: 130, timedOut: false, aborted: true };
  const bash = findExecutable("bash");
  if (!bash) throw new Error("bash not found in the system directories (/usr/bin, /bin, …)");
  // The outer shell replaces itself with `bash -c command` with stderr joined to stdout,
  // so the pipe carries both streams in order and the command sees a plain `bash -c`.
  const shellArgs = ["-c", 'exec -a bash "$0" -c "$1" 2>&1', bash, options.command];
  let spec: SpawnSpec = { command: bash, args: shellArgs, env: options.env, cwd: options.cwd };
  if (options.sandbox) {
    const prepared = await options.sandbox.prepare(spec, "bash");
    if ("refused" in prepared) {
      return { output: "", code: 126, timedOut: false, aborted: false, refused: prepared.refused };
    }
    spec = prepared;
  }
  // setsid makes an unconfined shell one process group we can kill; bubblewrap gives the
  // sandboxed one a session of its own and takes it down when killed (no setsid needed).
  const setsid = spec.ownSession ? undefined : findExecutable("setsid");
  const child = new Deno.Command(setsid ?? spec.command, {
    args: setsid ? [spec.command, ...spec.args] : spec.args,
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();

  // setsid execs in place (a spawned child is never a group leader), so pid == pgid.
  const killGroup = () => {
    if (setsid) killProcessGroup(child);
    else {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  const wrapped = spec.command !== bash;
  let timedOut = false;
  let aborted = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    killGroup();
  };
  options.signal.addEventListener("abort", onAbort, { once: true });

  const collector = new OutputSpool(options.limits ?? DEFAULT_OUTPUT_LIMITS, options.spill);
  let overflow = false;
  const reader = child.stdout.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (overflow) continue;
      if (!collector.push(value)) {
        overflow = true;
        killGroup();
      }
    }
  })().catch(() => {});

  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
  }
  // Background jobs of this call die with it (they would otherwise hold the pipe open).
  // In bubblewrap's own PID namespace they died with the shell already.
  if (!wrapped) killGroup();
  if (!(await settlesWithin(reading, DRAIN_GRACE_MS))) {
    // Something outside the group (e.g. `setsid cmd &`) still holds the pipe: stop reading.
    await reader.cancel().catch(() => {});
  }
  await reading; // settled by now; a read error surfaces as before
  const output = collector.text();
  collector.close();
  return { output, code: status.code, timedOut, aborted, overflow };
}
