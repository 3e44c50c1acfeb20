/**
 * Who starts the file worker. By default this thread does (`new Worker`). A thread that is
 * itself a worker may name a host instead: the launcher's harness worker hands the start to
 * the process's main thread (cli/launch/scope/), because Deno 2.9 takes about a second to
 * start a worker inside a worker (the nested thread waits ~0.5 s before its first line and
 * ~0.5 s before its first message), which a turn's first file tool would wait for. The host
 * holds the launcher's permissions, so it clamps the worker's to the grant of this thread
 * before it starts it: the file worker never holds more than the harness that asks for it.
 *
 * The host is found under a well-known symbol of the thread's global scope, so the thread
 * that installs it needs to load nothing of core/sandbox.
 *
 * @module
 */
import type { WorkerPermissions } from "./worker_grant.ts";

/** The end of a started worker this thread talks to. */
export interface HostedWorker {
  /** Sends a message to the worker. */
  postMessage(message: unknown): void;
  /** The worker's messages. */
  onmessage: ((e: MessageEvent) => void) | null;
  /** The worker's uncaught error (its message). */
  onfailure: ((message: string) => void) | null;
  /** Ends the worker. */
  terminate(): void;
}

/** Starts a worker from a module URL (a blob URL is the process's) with these permissions. */
export interface WorkerHost {
  start(url: string, name: string, permissions: WorkerPermissions): HostedWorker;
}

/** Where a thread's worker host is (see the module). */
export const WORKER_HOST_KEY = "hs.workerHost";

/** The host this thread named, if any. */
export function workerHost(): WorkerHost | undefined {
  return (globalThis as Record<symbol, WorkerHost | undefined>)[Symbol.for(WORKER_HOST_KEY)];
}
