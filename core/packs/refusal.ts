/**
 * A broken foreground pack fails closed (seed 000 §2–§3): when a pack that may hold the main
 * agent's behavior did not load — its `plugin.json`, a foreground bot's frontmatter, its
 * program (a parse error, a load error) or its `validate/configuration` (#f blocks
 * activation) — the main agent does not run as if the pack were absent. Runs of the main agent
 * are refused with a {@link PackLoadError} carrying the file, line and column; every front end
 * shows it and answers non-zero. A pack the user opted out of (`plugins.<name>.foreground:
 * false`) is not the main agent's behavior and refuses nothing.
 *
 * The listing's side of the same rule: {@link checkStates} loads a pack's `states` modules so
 * that their load errors (a second reducer, `JSON.parse` in a reducer, no reducer) are shown
 * by `hs packs` (which then exits non-zero) before a method is ever called.
 *
 * @module
 */
import { basename } from "../early/mod.ts";
import { HarnessError } from "../base/mod.ts";
import type { PackManifest } from "./manifest.ts";
import type { BotState, PackState } from "./program.ts";
import type { StateModuleLoader } from "./states.ts";

/** Where a load error points: `file`, and `line:col` when known. */
export interface LoadLocation {
  file: string;
  line?: number;
  col?: number;
}

/** The run refused because a foreground pack did not load. */
export class PackLoadError extends HarnessError {
  /** The pack that did not load. */
  readonly pack: string;
  /** The bot (its file stem), when a bot's load failed. */
  readonly bot?: string;
  /** Where the first problem is. */
  readonly location: LoadLocation;

  /**
   * A refusal over the packs' `problems` (each a `file:line:col: message` text); `fix` says
   * what to do first (default: fix the error `hs packs` lists).
   */
  constructor(pack: string, bot: string | undefined, reason: string, fix?: string) {
    super(
      `the behavior pack ${bot ? `${pack}/${bot}` : pack} did not load, so the agent does not ` +
        `run without it (it fails closed): ${reason}`,
      `${fix ?? "fix it (hs packs lists every load error)"}, or run without it: ` +
        `"plugins": {"${pack}": {"foreground": false}} in $HARNESS_HOME/plugins.json`,
    );
    this.name = "PackLoadError";
    this.pack = pack;
    this.bot = bot;
    this.location = locationOf(reason);
  }
}

/** The `file:line:col` (or `file:line`, or `file`) a `file:…: message` text starts with. */
export function locationOf(reason: string): LoadLocation {
  const m = /^(.+?):(\d+):(\d+): /.exec(reason) ?? /^(.+?):(\d+): /.exec(reason);
  if (m) return { file: m[1], line: Number(m[2]), col: m[3] ? Number(m[3]) : undefined };
  const f = /^(\S+?): /.exec(reason);
  return { file: f ? f[1] : "" };
}

/**
 * The refusal of the main agent's runs, if a foreground pack failed: a pack whose manifest did
 * not load (its bots are unknown, one may be foreground), a foreground bot that is not
 * attached, a foreground pack whose state module did not load, or a foreground bot whose
 * guards wait for approval — "an unapproved guard is a load error"
 * (seed 000 §7) — unless the person was asked and declined (`declined`: their "not now" for
 * this harness; a run that could not ask is refused). A disabled bot is the user's opt-out.
 */
export function foregroundRefusal(
  packs: readonly PackState[],
  foregroundOff: ReadonlySet<string>,
  declined: ReadonlySet<BotState> = new Set(),
): PackLoadError | undefined {
  for (const p of packs) {
    const name = p.manifest?.name ?? basename(p.dir);
    if (p.error) {
      if (!foregroundOff.has(name)) return new PackLoadError(name, undefined, p.error);
      continue;
    }
    // a foreground pack's state module that did not load (checked when the packs load)
    if (p.stateErrors?.length && !foregroundOff.has(name)) {
      const foreground = p.bots.some((b) => b.spec.attach === "foreground");
      if (foreground) return new PackLoadError(name, undefined, p.stateErrors[0]);
    }
    for (const b of p.bots) {
      if (b.spec.attach !== "foreground" || foregroundOff.has(b.pack.name)) continue;
      if (b.status === "awaiting approval" && !declined.has(b)) {
        const guards = b.pending.map((g) => `${g.guard} (${g.point}) at ${g.loc}`).join(", ");
        return new PackLoadError(
          b.pack.name,
          b.spec.name,
          `its guards wait for approval (an unapproved guard is a load error): ${guards}`,
          `approve them: hs packs approve ${b.pack.name} (a terminal, hs web and editors ask)`,
        );
      }
      if (b.status !== "not attached") continue;
      return new PackLoadError(b.pack.name, b.spec.name, b.reason ?? "it did not attach");
    }
  }
  return undefined;
}

/**
 * Loads each `states` module of a pack once (no log is opened): the load errors, each
 * `file:line:col: message`, the module's file when the error names no place.
 */
export async function checkStates(m: PackManifest, load: StateModuleLoader): Promise<string[]> {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const [scope, file] of Object.entries(m.states)) {
    if (seen.has(file)) continue;
    seen.add(file);
    try {
      await load({
        file,
        root: m.root,
        pack: m.name,
        scope: scope as "session" | "project" | "global",
        log: () => {},
      });
    } catch (err) {
      const msg = (err as Error).message;
      errors.push(msg.startsWith(file) ? msg : `${file}: ${msg}`);
    }
  }
  return errors;
}
