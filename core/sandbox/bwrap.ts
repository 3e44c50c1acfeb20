/**
 * The OS sandbox for child processes on Linux: bubblewrap. A child sees a
 * read-only root made of the system directories it needs to run, the
 * policy's readable paths (read-only) and writable paths (read-write), the
 * deny list masked, no network unless the policy grants some, a cleared
 * environment plus an allow-list, and no power: every capability dropped, no new
 * privileges, a session of its own (no controlling terminal to inject input into), its
 * own user (where the kernel allows) and PID namespaces, and it dies with its parent.
 * The bubblewrap binary comes from the fixed system directories, never from PATH.
 *
 * @module
 */
import { dirname } from "../early/mod.ts";
import { bwrapBinary } from "./locate/mod.ts";
import type { EffectPolicy } from "./policy.ts";
import { controlMountArgs, type ControlMountPlan } from "./control_mounts.ts";
import { PRESENCE_MARKER } from "../base/mod.ts";

/** Whether bubblewrap works here, and why not. */
export interface SandboxProbe {
  /** True when bubblewrap can confine a child here. */
  ok: boolean;
  /** The bubblewrap binary found. */
  bwrap?: string;
  /** Why it cannot be used, when it cannot. */
  reason?: string;
  /**
   * True when children get a user namespace of their own (`--unshare-user`; as root
   * `--unshare-all` makes none, it only tries one for an unprivileged user).
   */
  userns?: boolean;
}

const probes = new Map<string, Promise<SandboxProbe>>();

/** The flags that take every power from a child (see {@link bwrapArgs}). */
function powerless(userns: boolean): string[] {
  return [...(userns ? ["--unshare-user"] : []), "--cap-drop", "ALL"];
}

async function tryBwrap(bin: string, flags: string[]): Promise<string | undefined> {
  const out = await new Deno.Command(bin, {
    args: [
      "--ro-bind",
      "/",
      "/",
      "--unshare-all",
      ...flags,
      "--die-with-parent",
      "--",
      "/bin/true",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    clearEnv: true,
  }).output();
  if (out.success) return undefined;
  return new TextDecoder().decode(out.stderr).trim().split("\n")[0] || `exit ${out.code}`;
}

/**
 * Checks once per process (per binary) that bubblewrap exists and can create the
 * namespaces we use, with a user namespace of the child's own when the kernel allows.
 * `HARNESS_BWRAP` overrides the binary (a missing path simulates a machine without it).
 */
export function probeBwrap(env: Record<string, string | undefined>): Promise<SandboxProbe> {
  if (Deno.build.os !== "linux") {
    return Promise.resolve({
      ok: false,
      reason:
        `no OS sandbox for ${Deno.build.os} yet (Linux uses bubblewrap; see docs/security.md)`,
    });
  }
  const { bin, reason } = bwrapBinary(env);
  const key = bin ?? "";
  let p = probes.get(key);
  if (!p) {
    p = (async (): Promise<SandboxProbe> => {
      if (!bin) return { ok: false, reason };
      try {
        if (await tryBwrap(bin, powerless(true)) === undefined) {
          return { ok: true, bwrap: bin, userns: true };
        }
        // no user namespaces here (a setuid bwrap, or a kernel that forbids them)
        const why = await tryBwrap(bin, powerless(false));
        if (why === undefined) return { ok: true, bwrap: bin, userns: false };
        return {
          ok: false,
          bwrap: bin,
          reason: `bubblewrap cannot create namespaces here: ${why} ` +
            "(allow unprivileged user namespaces, e.g. sysctl kernel.unprivileged_userns_clone=1)",
        };
      } catch (err) {
        return { ok: false, reason: `cannot run ${bin}: ${(err as Error).message}` };
      }
    })();
    probes.set(key, p);
  }
  return p;
}

/** Directories a program needs to run (read-only). */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];
/** Files and directories of /etc that programs need; the rest of /etc stays hidden. */
const ETC = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/localtime",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/hosts",
  "/etc/resolv.conf",
  "/etc/host.conf",
  "/etc/mime.types",
  "/etc/gitconfig",
  "/etc/bash.bashrc",
  "/etc/profile",
  "/etc/inputrc",
  "/etc/terminfo",
  "/etc/python3",
];

/**
 * Variables a sandboxed child keeps (plus HARNESS_*, LC_*, the policy's env list and the
 * presence markers of set provider keys, which hold no key: core/base/presence.ts).
 */
export const BASE_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "SHELL",
  "NO_COLOR",
  "COLORTERM",
  "TMPDIR",
];

/**
 * The environment a child keeps under a policy; `configured`: names the user set for this
 * program explicitly (kept unless the policy denies them).
 */
export function filterEnv(
  env: Record<string, string>,
  policy: EffectPolicy,
  configured: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (policy.deny.env.includes(k)) continue;
    const keep = policy.env === "all" || BASE_ENV.includes(k) || k.startsWith("HARNESS_") ||
      k.startsWith("LC_") || policy.env.includes(k) || configured.includes(k) ||
      v === PRESENCE_MARKER;
    if (keep) out[k] = v;
  }
  return out;
}

/** Directories of the toolchain on PATH (a `…/bin` or `…/shims` entry exposes its parent). */
export function toolchainDirs(path: string, userHome: string): string[] {
  const out = new Set<string>();
  for (const d of path.split(":").filter((x) => x.startsWith("/"))) {
    out.add(d);
    if (/\/(bin|sbin|shims)$/.test(d)) {
      const parent = dirname(d);
      if (
        parent !== "/" && parent !== userHome && parent !== "/usr" && parent !== dirname(userHome)
      ) {
        out.add(parent);
      }
    }
  }
  return [...out];
}

/**
 * `lstat` for one argument list, remembered: a path whose parent is known to be missing is
 * missing without a system call (the control paths of every directory up to `/` share a few
 * missing parents; a failed `lstat` costs about 20 µs in Deno, a found one about 5 µs).
 * A parent this process may not look at (a permission-scoped run) proves nothing: the path
 * itself is looked at then.
 */
class PathLook {
  #seen = new Map<string, Deno.FileInfo | "missing" | "hidden">();

  /** The path's entry, or undefined when it does not exist or cannot be seen. */
  info(p: string): Deno.FileInfo | undefined {
    const r = this.#look(p);
    return typeof r === "string" ? undefined : r;
  }

  #look(p: string): Deno.FileInfo | "missing" | "hidden" {
    const known = this.#seen.get(p);
    if (known !== undefined) return known;
    const parent = dirname(p);
    let r: Deno.FileInfo | "missing" | "hidden";
    if (parent !== p && this.#look(parent) === "missing") r = "missing";
    else {
      try {
        r = Deno.lstatSync(p);
      } catch (err) {
        r = err instanceof Deno.errors.NotFound ? "missing" : "hidden";
      }
    }
    this.#seen.set(p, r);
    return r;
  }
}

/** What to expose besides the policy. */
export interface BwrapExtras {
  /** Read-only extras (toolchain dirs, the executable's own directory). */
  readOnly: string[];
  /** Writable extras (e.g. the session directory for hooks). */
  writable: string[];
  /** The child's working directory inside the sandbox. */
  cwd: string;
  /** Paths bound read-only over a writable grant (when they exist). */
  protect?: string[];
  /** A user namespace of the child's own (what {@link probeBwrap} found possible). */
  userns?: boolean;
  /**
   * The child shares the user's terminal (an interactive hook the user trusted): no
   * session of its own; the caller loads the TIOCSTI filter (`seccomp.ts`).
   */
  sharesTerminal?: boolean;
  /** `--seccomp FD`: the fd the caller feeds the compiled filter on. */
  seccompFd?: number;
  /** The control paths' mounts (read-only over the policy's writable grant). */
  control?: ControlMountPlan;
}

/**
 * Drops duplicates and paths inside another path of the list (a nested
 * read-only bind adds nothing but mount cost, about 0.3 ms each). Order kept.
 */
export function withoutNested(paths: string[]): string[] {
  const set = [...new Set(paths.map((p) => (p.length > 1 ? p.replace(/\/+$/, "") : p)))];
  return set.filter((p) => !set.some((q) => q !== p && (q === "/" || p.startsWith(q + "/"))));
}

/**
 * A private, writable `/tmp` for every sandboxed child: an empty tmpfs in the child's own
 * mount namespace, gone when the child (and everything it started) exits. Its `TMPDIR`
 * points there ({@link SANDBOX_TMPDIR}), so `mktemp` works under any policy.
 */
const PRIVATE_TMP = ["--tmpfs", "/tmp"];

/** `TMPDIR` of a sandboxed child (its private tmpfs). */
export const SANDBOX_TMPDIR = "/tmp";

/**
 * The top directories of the host's `/tmp` that hold something the child sees (a workspace
 * in `/tmp/x/ws` → `/tmp/x`). Each becomes an empty read-only tmpfs the child's binds sit
 * in, so that writing next to them still fails instead of landing in the private `/tmp`.
 */
export function tmpAncestors(paths: string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const m = /^\/tmp\/([^/]+)\/./.exec(p);
    if (m) out.add(`/tmp/${m[1]}`);
  }
  return [...out];
}

/** bubblewrap arguments for a policy (everything before `--`). */
export function bwrapArgs(policy: EffectPolicy, extras: BwrapExtras): string[] {
  const look = new PathLook();
  const a: string[] = ["--die-with-parent", "--unshare-all", ...powerless(extras.userns === true)];
  // a session of its own: no controlling terminal, so no TIOCSTI into the user's shell
  if (!extras.sharesTerminal) a.push("--new-session");
  if (extras.seccompFd !== undefined) a.push("--seccomp", String(extras.seccompFd));
  if (policy.net === "all" || policy.net.length > 0) a.push("--share-net");
  const writable = policy.write === "all" ? [] : [...policy.write, ...extras.writable];
  const ro = policy.read === "all"
    ? []
    : withoutNested([...SYSTEM_DIRS, ...ETC, ...extras.readOnly, ...policy.read]);
  // the child's own /tmp (its TMPDIR) comes first; what it may see of the host's /tmp is
  // bound on top, inside read-only directories (see tmpAncestors)
  const shells = policy.write === "all"
    ? [] // the host's root is bound writable over everything: nothing to keep read-only
    : tmpAncestors([...ro, ...writable, ...policy.deny.read, ...policy.deny.write]);
  if (policy.read === "all") a.push("--ro-bind", "/", "/");
  a.push(...PRIVATE_TMP);
  for (const d of shells) a.push("--tmpfs", d);
  if (policy.read !== "all") {
    // no stat here: a permission-scoped process may not read them, bwrap can
    // (a symlinked /bin or /lib is bound as the directory it points to)
    const system = new Set<string>([...SYSTEM_DIRS, ...ETC]);
    for (const d of ro) {
      if (system.has(d) || look.info(d)) a.push("--ro-bind-try", d, d);
    }
  }
  a.push("--dev", "/dev", "--proc", "/proc");
  if (policy.write === "all") a.push("--bind", "/", "/");
  for (const d of policy.write === "all" ? [] : policy.write) {
    if (look.info(d)) a.push("--bind-try", d, d);
  }
  if (extras.control) a.push(...controlMountArgs(extras.control, policy.write));
  // a hook's own files (its session, the log) stay writable inside a control directory
  for (const d of policy.write === "all" ? [] : extras.writable) {
    if (look.info(d)) a.push("--bind-try", d, d);
  }
  // masks: unreadable paths become empty (files) or empty tmpfs (directories), read-only
  for (const d of new Set(policy.deny.read)) {
    const info = look.info(d);
    if (!info) continue;
    if (info.isDirectory) a.push("--tmpfs", d, "--remount-ro", d);
    else a.push("--ro-bind", "/dev/null", d);
  }
  // write-only denials and protected paths stay readable, but read-only
  for (const d of new Set([...policy.deny.write, ...(extras.protect ?? [])])) {
    if (policy.deny.read.includes(d)) continue;
    if (look.info(d)) a.push("--ro-bind-try", d, d);
  }
  for (const d of shells) a.push("--remount-ro", d);
  a.push("--remount-ro", "/", "--chdir", extras.cwd);
  return a;
}
