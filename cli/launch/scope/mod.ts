/**
 * Scoping inside the process: the harness worker under the run's grant, and its side of the
 * exchange with the main thread (its exit, the workers it asks for). A room of its own: the
 * harness worker loads it at start, and nothing of the grant's computation.
 *
 * @module
 */
export {
  clampToGrant,
  HARNESS_WORKER,
  runInWorker,
  serveHarness,
  type WorkerGrant,
  workerPermissions,
} from "./scope.ts";
