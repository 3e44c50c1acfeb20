/**
 * Ctrl-C while a turn runs: the first cancels it (aborts the HTTP request,
 * kills child process groups), the second exits with 130. One Ctrl-C can
 * arrive twice within a moment (from the terminal and forwarded by the
 * launcher); signals closer than {@link SAME_PRESS_MS} count once.
 *
 * @module
 */
import { killAllChildren } from "../../core/exec/mod.ts";

/** Two SIGINTs closer than this are the same key press. */
export const SAME_PRESS_MS = 200;

/** Listens for SIGINT until the returned function is called; `notice` is shown on the first. */
export function cancelOnInterrupt(controller: AbortController, notice: () => void): () => void {
  let interrupts = 0;
  let last = -Infinity;
  const onSigint = () => {
    const now = performance.now();
    if (now - last < SAME_PRESS_MS) return;
    last = now;
    interrupts++;
    killAllChildren();
    if (interrupts > 1) Deno.exit(130);
    notice();
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", onSigint);
  return () => Deno.removeSignalListener("SIGINT", onSigint);
}
