/**
 * The one kind of sandboxed child that keeps the user's terminal: an interactive hook
 * the user trusted. It stays in hs's session (so `/dev/tty` is the user's terminal) and
 * bubblewrap loads the TIOCSTI-refusing seccomp filter ({@link tiocstiFilter}) into it.
 * bubblewrap reads the filter from a file descriptor; Deno hands a child only stdin,
 * stdout and stderr, so the system's bash opens fd 3 on a pipe that `printf` fills with
 * the filter and then replaces itself with bubblewrap.
 *
 * Where that cannot work — no filter for this architecture, no system bash, a kernel or
 * bubblewrap that refuses the filter (checked once) — the hook gets no terminal: it runs
 * in a session of its own like every other child.
 *
 * @module
 */
import { systemBinary } from "../exec/mod.ts";
import { printfEscaped, tiocstiFilter } from "./seccomp.ts";

/** The fd bubblewrap reads the filter from. */
export const SECCOMP_FD = 3;

const FEED = `exec "$@" ${SECCOMP_FD}< <(printf "$0")`;

const checked = new Map<string, Promise<boolean>>();

/** The bash command line that runs `bwrap args -- inner` with the filter on fd 3. */
function feeding(
  bash: string,
  filter: string,
  bwrap: string,
  args: string[],
  inner: string[],
): { command: string; args: string[] } {
  return { command: bash, args: ["-c", FEED, filter, bwrap, ...args, "--", ...inner] };
}

/** True when bubblewrap loads the filter here (once per binary). */
function filterLoads(bash: string, filter: string, bwrap: string): Promise<boolean> {
  let p = checked.get(bwrap);
  if (!p) {
    const line = feeding(bash, filter, bwrap, [
      "--ro-bind",
      "/",
      "/",
      "--unshare-all",
      "--cap-drop",
      "ALL",
      "--seccomp",
      String(SECCOMP_FD),
    ], ["/bin/true"]);
    p = new Deno.Command(line.command, {
      args: line.args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      clearEnv: true,
    }).output().then((o) => o.success, () => false);
    checked.set(bwrap, p);
  }
  return p;
}

/**
 * The command line of a sandboxed child that shares the terminal under the TIOCSTI
 * filter (`argsFor(fd)`: the bubblewrap arguments, loading the filter from `fd`), or
 * undefined when the filter cannot be loaded here.
 */
export async function withTerminalFilter(
  bwrap: string,
  argsFor: (fd: number) => string[],
  inner: string[],
): Promise<{ command: string; args: string[] } | undefined> {
  const bpf = tiocstiFilter();
  const bash = systemBinary("bash");
  if (!bpf || !bash) return undefined;
  const filter = printfEscaped(bpf);
  if (!(await filterLoads(bash, filter, bwrap))) return undefined;
  return feeding(bash, filter, bwrap, argsFor(SECCOMP_FD), inner);
}
