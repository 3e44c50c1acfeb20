/**
 * The launcher (`deno task hs`) and the first look at the command line that
 * it shares with the CLI.
 *
 * @module
 */
export * from "./argv.ts";
export { computeGrant, type Grant, grantFlags, hostOf, which } from "./grant.ts";
export { runLauncher, workspaceDir } from "./run.ts";
export { editDistance, type KnownCommand, nearestCommand, typoError } from "./typo.ts";
