/**
 * The one line hs prints when a workspace `.harness/sessions` is not used (core/base
 * sessions_place.ts): which directory, why, where sessions are kept instead, and how to
 * keep them there.
 *
 * @module
 */
import type { Where } from "../../core/mod.ts";
import type { CliContext } from "../base/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

/** The notice for these paths, or undefined when the nearest sessions directory is used. */
export function sessionsNotice(
  paths: Pick<Where, "sessions" | "sessionsSkipped">,
): string | undefined {
  const s = paths.sessionsSkipped;
  if (!s) return undefined;
  const workspace = s.dir.replace(/\/\.harness\/sessions$/, "");
  return safe(
    `hs: not keeping sessions in ${s.dir}: ${s.why}; they are kept in ${paths.sessions} ` +
      `(if you made it to keep them there: hs trust ${workspace})`,
  ) + "\n";
}

/** Prints {@link sessionsNotice} on stderr when there is one. */
export function printSessionsNotice(
  paths: Pick<Where, "sessions" | "sessionsSkipped">,
  cli: CliContext,
): void {
  const line = sessionsNotice(paths);
  if (line) cli.stderr(line);
}
