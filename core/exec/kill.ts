/**
 * Ending a child's whole process group. Children start through `setsid(1)`,
 * so a child's pid is its group id. `Deno.kill(-pgid)` needs the unrestricted
 * `--allow-run`; a run narrowed by the launcher holds `--allow-run` for a few
 * binaries only, so the group is then killed through `kill(1)` (granted by the
 * launcher) after the leader itself.
 *
 * @module
 */

import { systemBinary } from "./system_bin.ts";

let killBin: string | undefined | null = null;

/** The `kill(1)` binary the launcher grants, if this system has one. */
export function killBinary(): string | undefined {
  if (killBin === null) killBin = systemBinary("kill");
  return killBin;
}

/** Sends SIGKILL to the process group led by `child` (and to the leader itself). Never throws. */
export function killProcessGroup(child: { pid: number; kill(signo?: Deno.Signal): void }): void {
  try {
    Deno.kill(-child.pid, "SIGKILL");
    return;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied)) {
      // ESRCH: the group is gone already (or was never a group): make sure of the leader.
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      return;
    }
  }
  try {
    child.kill("SIGKILL");
  } catch { /* gone */ }
  const bin = killBinary();
  if (!bin) return;
  try {
    new Deno.Command(bin, {
      args: ["-s", "KILL", "--", `-${child.pid}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
      clearEnv: true,
    }).outputSync();
  } catch { /* not permitted or gone: nothing more to try */ }
}
