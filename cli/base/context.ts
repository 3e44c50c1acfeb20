/**
 * What every CLI command shares: the harness factory (so the CLI can be
 * tested with other built-ins; it hands the harness's front end), the process's streams, environment and
 * working directory, and the Scheme runner.
 *
 * @module
 */
import type { FrontEnd, HarnessOptions } from "../../core/mod.ts";

/** Everything a command needs from its caller (main.ts). */
export interface CliContext {
  /** Starts a harness; a command is handed its front end (core/front_end.ts), not the kernel. */
  createHarness(opts: HarnessOptions): Promise<FrontEnd>;
  stdout(s: string): void;
  stderr(s: string): void;
  stdinIsTerminal: boolean;
  stdoutIsTerminal: boolean;
  /** The process environment. */
  env: Record<string, string | undefined>;
  /** The user's working directory. */
  cwd: string;
  /** Runs `hs scheme` (wired by main.ts). */
  scheme?(args: string[]): Promise<number>;
}

/** Writes text to a Deno writer synchronously (handles short writes). */
export function writeAllSync(w: { writeSync(p: Uint8Array): number }, s: string): void {
  const bytes = new TextEncoder().encode(s);
  let off = 0;
  while (off < bytes.length) off += w.writeSync(bytes.subarray(off));
}
