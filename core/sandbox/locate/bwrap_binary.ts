/**
 * Where the bubblewrap binary is, alone: the launcher's grant needs only this of the sandbox
 * (cli/launch/grant.ts lets the harness run it), and importing it loads no more of the sandbox
 * (the whole of core/sandbox is ~6 ms CPU of every launch).
 *
 * @module
 */
import { SYSTEM_BIN_DIRS, systemBinary } from "../../exec/mod.ts";

/**
 * The bubblewrap binary: `HARNESS_BWRAP` when the user's environment names one (an
 * absolute path; a missing one simulates a machine without bubblewrap), else the system's
 * from the fixed directories ({@link systemBinary}) — never a `bwrap` found through PATH.
 */
export function bwrapBinary(
  env: Record<string, string | undefined>,
): { bin?: string; reason?: string } {
  const override = env.HARNESS_BWRAP;
  if (override !== undefined && override !== "") {
    if (!override.startsWith("/")) {
      return {
        reason: `HARNESS_BWRAP must be an absolute path (it is ${JSON.stringify(override)})`,
      };
    }
    return { bin: override };
  }
  const bin = systemBinary("bwrap");
  if (bin) return { bin };
  return {
    reason: `bubblewrap (bwrap) is not installed in ${SYSTEM_BIN_DIRS.join(", ")} as root's ` +
      "(install it: apt-get install bubblewrap; a bwrap on PATH elsewhere is not used)",
  };
}
