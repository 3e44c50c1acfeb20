/**
 * Ctrl-C while a turn runs: the first cancels it (aborts the HTTP request,
 * kills child process groups), the second exits with 130. One Ctrl-C can
 * arrive twice within a moment (from the terminal and forwarded by `deno task`);
 * signals closer than {@link SAME_PRESS_MS} count once, across listeners.
 *
 * @module
 */
import { killAllChildren } from "../../core/exec/mod.ts";

/**
 * Two SIGINTs closer than this are the same key press. `deno task` forwards the terminal's
 * SIGINT to hs, which the terminal also signals: on a loaded machine (CI under load 15) the
 * forwarded copy can come more than 200 ms after the first (a REPL test ended mid-turn there,
 * most likely exited with 130 by that copy counted as a
 * "second Ctrl-C"); a person's deliberate second press is rarely faster than this.
 */
export const SAME_PRESS_MS = 600;

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
