/**
 * `hs scheme`: the command (`runSchemeCli`: a file, a REPL on a terminal, form by form on a
 * pipe), its fast path taken by `main.ts` and the launcher before the rest of the CLI loads,
 * and `main.ts` here, the same command without the harness. The command's entry in the
 * harness's command list (cli/commands/scheme.ts) only hands its arguments here.
 *
 * @module
 */
export { runSchemeCli, type SchemeCliIO } from "./run.ts";
export { runScheme, runSchemeConfined, schemeFastPathApplies, schemeFile } from "./fast_path.ts";
