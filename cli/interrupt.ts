/**
 * Ctrl-C while a turn runs: the first cancels it (aborts the HTTP request,
 * kills child process groups), the second exits with 130.
 *
 * @module
 */
import { killAllChildren } from "../core/mod.ts";

/** Listens for SIGINT until the returned function is called; `notice` is shown on the first. */
export function cancelOnInterrupt(controller: AbortController, notice: () => void): () => void {
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    killAllChildren();
    if (interrupts > 1) Deno.exit(130);
    notice();
    controller.abort();
  };
  Deno.addSignalListener("SIGINT", onSigint);
  return () => Deno.removeSignalListener("SIGINT", onSigint);
}
