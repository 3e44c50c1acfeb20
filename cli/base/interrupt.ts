/**
 * Ctrl-C while a turn runs: the first cancels it (aborts the HTTP request,
 * kills child process groups), the second exits with 130. One Ctrl-C can
 * arrive twice within a moment (from the terminal and forwarded by `deno task`);
 * signals closer than {@link SAME_PRESS_MS} count once, across listeners.
 *
 * @module
 */
import { killAllChildren } from "../../core/exec/mod.ts";

/** Two SIGINTs closer than this are the same key press. */
export const SAME_PRESS_MS = 200;

/**
 * When the last SIGINT arrived, for the whole process: one key press delivered twice (by
 * the terminal to the process group, and forwarded by `deno task`) may straddle the end of
 * one listener and the start of the next — the REPL cancels a turn, prompts, and the next
 * turn is already listening when the second copy arrives. Kept per listener, that copy
 * cancelled the next turn.
 */
let lastSigint = -Infinity;

/** Listens for SIGINT until the returned function is called; `notice` is shown on the first. */
export function cancelOnInterrupt(controller: AbortController, notice: () => void): () => void {
  let interrupts = 0;
  const onSigint = () => {
    const now = performance.now();
    const samePress = now - lastSigint < SAME_PRESS_MS;
    lastSigint = now;
    if (samePress) return;
    interrupts++;
    killAllChildren();
    if (interrupts > 1) Deno.exit(130);
    notice();
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", onSigint);
  return () => Deno.removeSignalListener("SIGINT", onSigint);
}
