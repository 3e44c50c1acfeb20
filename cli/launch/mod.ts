/**
 * The launcher (`deno task hs`, the bundle, the compiled binary) and the first
 * look at the command line that it shares with the CLI.
 *
 * @module
 */
export * from "./argv.ts";
export { computeGrant, type Grant, grantFlags, hostOf, which } from "./grant.ts";
export { type HarnessPlace, runLauncher, workspaceDir } from "./run.ts";
export {
  clampToGrant,
  HARNESS_WORKER,
  runInWorker,
  serveHarness,
  type WorkerGrant,
  workerPermissions,
} from "./scope/mod.ts";
export { editDistance, type KnownCommand, nearestCommand, typoError } from "./typo.ts";
