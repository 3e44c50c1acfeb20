/**
 * A harness for one command: created with the command's floor flags, the
 * trust question asked first, closed afterwards whatever happens. The command is
 * handed its {@link FrontEnd} (runs, catalog, sessions, packs, admin), not the kernel.
 *
 * @module
 */
import type { FrontEnd, HarnessOptions } from "../../core/mod.ts";
import { BUILTIN_COMMAND_NAMES, type CliContext } from "../base/mod.ts";
import { type FloorFlags, floorRequestOf } from "./floor_flags.ts";
import { handleConsent, handleTrust } from "../prompts/mod.ts";
import { printSessionsNotice } from "./sessions_notice.ts";

/** Flags that shape a command's harness. */
export type HarnessFlags = FloorFlags & {
  trustWorkspace?: boolean;
  /** Prompt for the floor's `ask` decisions on this terminal. */
  interactive?: boolean;
  /**
   * False: no consent question for waiting guards (a command that runs none of this harness's
   * bots: `hs packs test` forces its pack on in a throwaway harness of its own).
   */
  consent?: boolean;
};

/** Runs `fn` with a fresh harness; resolves to its exit code. */
export async function withHarness(
  cli: CliContext,
  flags: HarnessFlags,
  fn: (h: FrontEnd) => Promise<number>,
  extra: HarnessOptions = {},
): Promise<number> {
  const h = await cli.createHarness({
    cwd: cli.cwd,
    env: cli.env,
    trustWorkspace: flags.trustWorkspace === true,
    floorRequest: floorRequestOf(flags, cli, flags.interactive === true),
    // interactive hooks (auth-set, tool_exec gates) may use the terminal hs runs on
    terminal: cli.stdinIsTerminal || cli.stdoutIsTerminal,
    // a plugin command may not take a built-in's name (it would never run)
    reservedCommands: BUILTIN_COMMAND_NAMES,
    ...extra,
  });
  try {
    await handleTrust(h, cli);
    printSessionsNotice(h.where, cli);
    // a workspace trusted just now may bring `sources` hooks of its own
    await h.catalog.refreshSources();
    if (flags.consent !== false) await handleConsent(h, cli);
    return await fn(h);
  } finally {
    await h.close();
  }
}
