/**
 * `deno task hs`: the permission-scoped launcher. It computes what this run of
 * the harness may touch (see cli/launch/grant.ts) and runs `main.ts` with
 * exactly those Deno permissions — never `-A`. It loads no plugin, runs no
 * hook and answers `hs version` itself.
 *
 * @module
 */
import { runLauncher } from "./cli/launch/mod.ts";

if (import.meta.main) Deno.exit(await runLauncher(Deno.args));
