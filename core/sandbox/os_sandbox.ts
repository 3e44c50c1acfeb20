/**
 * {@link ChildSandbox} for the effect floor: wraps child processes in
 * bubblewrap when the policy is narrower than the process; when no OS
 * sandbox is available it says so once and refuses, unless the user chose
 * `--unsandboxed` (then it warns on every call).
 *
 * @module
 */
import { dirname, normalize } from "../early/mod.ts";
import type { ChildSandbox, SpawnSpec } from "../base/mod.ts";
import type { EffectPolicy } from "./policy.ts";
import {
  bwrapArgs,
  filterEnv,
  probeBwrap,
  SANDBOX_TMPDIR,
  type SandboxProbe,
  tmpAncestors,
  toolchainDirs,
} from "./bwrap.ts";
import { withTerminalFilter } from "./terminal.ts";
import { type ControlMountPlan, ensureRooms } from "./control_mounts.ts";

/** Options of {@link OsSandbox}. */
export interface OsSandboxOptions {
  /** The effect policy children run under. */
  policy: EffectPolicy;
  /** True when the policy grants less than the process holds. */
  narrower: boolean;
  /** The process environment (PATH for the toolchain, HARNESS_BWRAP). */
  env: Record<string, string | undefined>;
  /** The user's home (toolchain directories under it stay readable). */
  userHome: string;
  /** True with `--unsandboxed`: children run unconfined, with a warning on every call. */
  unsandboxed: boolean;
  /** Paths children see read-only even inside a writable grant (the harness's control files). */
  readOnly?: string[];
  /** The control paths' mounts (see `control_mounts.ts`); replaces `readOnly`'s binds. */
  control?: ControlMountPlan;
  /** Where the one-time notice and per-call warnings go. */
  warn(line: string): void;
}

/** The directory to expose for an executable: its `.harness` source, else its directory. */
export function sourceDirOf(command: string): string {
  const i = command.lastIndexOf("/.harness/");
  if (i >= 0) return command.slice(0, i + "/.harness".length);
  return dirname(command);
}

/** True when `path` is a regular file, created empty if missing (false when it cannot be). */
function ensureFile(path: string): boolean {
  try {
    if (Deno.statSync(path).isFile) return true;
    return false;
  } catch {
    try {
      Deno.writeFileSync(path, new Uint8Array(), { append: true });
      return true;
    } catch {
      return false; // not ours to create (a run without write access there): hooks go without
    }
  }
}

/** Child processes under the floor's policy. */
export class OsSandbox implements ChildSandbox {
  #o: OsSandboxOptions;
  #told = false;
  #roomsMade = false;

  /** Creates the sandbox of a policy. */
  constructor(opts: OsSandboxOptions) {
    this.#o = opts;
  }

  /** Whether bubblewrap works here (cached per process). */
  probe(): Promise<SandboxProbe> {
    return probeBwrap(this.#o.env);
  }

  /** The refusal text when children cannot run, or undefined when they can. */
  async refusal(what: string): Promise<string | undefined> {
    if (!this.#o.narrower || this.#o.unsandboxed) return undefined;
    const p = await this.probe();
    if (p.ok) return undefined;
    this.#notice(p.reason!);
    return `refused to run ${what}: no OS sandbox — ${p.reason}. The effect policy is ` +
      "narrower than this process, so a child process would escape it. Fix: install bubblewrap, " +
      "or run with --floor full (no narrowing) or --unsandboxed (run children unconfined)";
  }

  /**
   * True when a sandboxed child writing `path` writes into its own private `/tmp` (a tmpfs
   * gone when it exits): children run in bubblewrap here, the policy does not bind the
   * host's root writable, and nothing the child sees of the host — the policy's paths,
   * the toolchain, `alsoBound` (the workspace, the harness home) — shares the path's top
   * directory under `/tmp`. Such a write leaves no trace on the host.
   */
  async privateTmp(path: string, alsoBound: string[] = []): Promise<boolean> {
    const p = normalize(path);
    const m = /^\/tmp\/([^/]+)/.exec(p);
    if (!m || m[1] === "..") return false;
    const { policy } = this.#o;
    if (!this.#o.narrower || policy.write === "all") return false;
    if (!(await this.probe()).ok) return false;
    const bound = [
      ...(policy.read === "all" ? [] : policy.read),
      ...policy.write,
      ...policy.deny.read,
      ...policy.deny.write,
      ...toolchainDirs(this.#o.env.PATH ?? "", this.#o.userHome),
      ...(this.#o.readOnly ?? []),
      ...alsoBound,
    ].map((b) => normalize(b));
    const top = `/tmp/${m[1]}`;
    // a bound path at /tmp/<top> itself, or inside it, makes that directory the host's
    if (bound.some((b) => b === "/tmp" || b === top || b.startsWith(top + "/"))) return false;
    return !tmpAncestors(bound).includes(top);
  }

  #notice(reason: string): void {
    if (this.#told) return;
    this.#told = true;
    this.#o.warn(`hs: no OS sandbox for child processes: ${reason}`);
  }

  async prepare(spec: SpawnSpec, what: string): Promise<SpawnSpec | { refused: string }> {
    const { policy } = this.#o;
    const env = filterEnv(spec.env, policy, spec.keepEnv);
    if (!this.#o.narrower) return { ...spec, env };
    const p = await this.probe();
    if (!p.ok) {
      this.#notice(p.reason!);
      if (!this.#o.unsandboxed) return { refused: (await this.refusal(what))! };
      this.#o.warn(`hs: warning: running ${what} without an OS sandbox (--unsandboxed)`);
      return { ...spec, env };
    }
    const writable: string[] = [];
    if (what.startsWith("hook")) {
      // hooks keep the session's files and append to HARNESS_LOG themselves (the reference's do)
      if (spec.env.HARNESS_SESSION) writable.push(spec.env.HARNESS_SESSION);
      const log = spec.env.HARNESS_LOG;
      if (log && ensureFile(log)) writable.push(log);
    }
    const readOnly = [
      ...toolchainDirs(this.#o.env.PATH ?? "", this.#o.userHome),
      sourceDirOf(spec.command),
      ...(spec.readOnly ?? []),
    ];
    const control = this.#o.control;
    if (control && !this.#roomsMade) {
      this.#roomsMade = true;
      ensureRooms(control, policy.write);
    }
    const extras = {
      readOnly,
      writable,
      cwd: spec.cwd,
      protect: control ? [] : this.#o.readOnly ?? [],
      control,
      userns: p.userns === true,
    };
    // its private /tmp, whatever TMPDIR the user has (it would not exist in there)
    const childEnv = { ...env, TMPDIR: SANDBOX_TMPDIR };
    const inner = [spec.command, ...spec.args];
    if (spec.terminal) {
      const shared = await withTerminalFilter(
        p.bwrap!,
        (fd) => bwrapArgs(policy, { ...extras, sharesTerminal: true, seccompFd: fd }),
        inner,
      );
      if (shared) return { ...shared, env: childEnv, cwd: spec.cwd, terminal: true };
    }
    return {
      command: p.bwrap!,
      args: [...bwrapArgs(policy, extras), "--", ...inner],
      env: childEnv,
      cwd: spec.cwd,
      terminal: false,
      ownSession: true,
    };
  }
}
