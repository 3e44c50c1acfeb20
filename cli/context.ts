/**
 * What every CLI command shares: the harness factory (so the CLI can be
 * tested with other built-ins), output streams and trust handling.
 *
 * @module
 */
import type { HarnessCore, HarnessOptions } from "../core/harness.ts";

/** Everything a command needs from its caller. */
export interface CliContext {
  createHarness(opts: HarnessOptions): Promise<HarnessCore>;
  stdout(s: string): void;
  stderr(s: string): void;
  stdinIsTerminal: boolean;
  stdoutIsTerminal: boolean;
  /** Runs `hs scheme` (wired by main.ts). */
  scheme?(args: string[]): Promise<number>;
}

/** Writes text to a Deno writer synchronously (handles short writes). */
export function writeAllSync(w: { writeSync(p: Uint8Array): number }, s: string): void {
  const bytes = new TextEncoder().encode(s);
  let off = 0;
  while (off < bytes.length) off += w.writeSync(bytes.subarray(off));
}
