/**
 * The sessions a front end lists, shows and opens: this workspace's (or every workspace's)
 * sessions, a session's directory, a new session. A view over the places of
 * groups.ts, built from the paths alone — `hs session` and `hs resume` use it
 * without starting a harness. A session also leaves and enters as one archive
 * (archive.ts, archive_import.ts: `hs session export` / `import`), loaded only then.
 *
 * @module
 */
import { join, lateImport } from "../early/mod.ts";
import { HarnessError, type Paths } from "../base/mod.ts";
import { everySession, findSessionDir, type StoredSession, workspaceSessions } from "./groups.ts";
import { Session } from "./session.ts";

// deno-lint-ignore no-explicit-any
declare const require: (path: string) => any;

/**
 * The archive modules, loaded on the first export or import (core/early/late_import.ts), so that
 * Deno does not build their graph (zod) for every `hs session` command.
 */
async function archives(): Promise<
  typeof import("./archive.ts") & typeof import("./archive_import.ts")
> {
  const [a, b] = await Promise.all([
    lateImport<typeof import("./archive.ts")>(
      new URL("./archive.ts", import.meta.url),
      () => require("./archive.ts" as string),
    ),
    lateImport<typeof import("./archive_import.ts")>(
      new URL("./archive_import.ts", import.meta.url),
      () => require("./archive_import.ts" as string),
    ),
  ]);
  return { ...a, ...b };
}

/** What a new session records. */
export interface NewSession {
  /** Its working directory (default: the harness's). */
  cwd?: string;
  provider: string;
  model: string;
}

/** The sessions of a workspace, as front ends read them. */
export class Sessions {
  #paths: Paths;

  /** The view over `paths` (no file is read until a method asks). */
  constructor(paths: Paths) {
    this.#paths = paths;
  }

  /** This workspace's sessions directory (where a new session goes). */
  get dir(): string {
    return this.#paths.sessions;
  }

  /** This workspace's sessions, newest first (`all`: every workspace's, each with its cwd). */
  list(all = false): StoredSession[] {
    return all ? everySession(this.#paths) : workspaceSessions(this.#paths);
  }

  /** The directory of a session (an id, or a directory), if there is one. */
  find(idOrDir: string): string | undefined {
    return findSessionDir(this.#paths, idOrDir);
  }

  /** The directory of a session; a HarnessError (with how to list them) when there is none. */
  dirOf(idOrDir: string): string {
    const dir = this.find(idOrDir);
    if (!dir) {
      throw new HarnessError(
        `no session "${idOrDir}" in ${this.#paths.sessions}`,
        "list them with: hs session list (every workspace's: hs session list --all)",
      );
    }
    return dir;
  }

  /** Where session `id` is: where it was found, else where a new one of that id goes. */
  placeOf(id: string): string {
    return this.find(id) ?? join(this.#paths.sessions, id);
  }

  /** Opens a session by id or directory (a HarnessError when there is none). */
  open(idOrDir: string): Session {
    return Session.open(this.dirOf(idOrDir));
  }

  /** Creates a session in this workspace's sessions directory. */
  create(init: NewSession): Session {
    return Session.create(this.#paths.sessions, {
      cwd: init.cwd ?? this.#paths.cwd,
      provider: init.provider,
      model: init.model,
    });
  }

  /**
   * The archive text of a session (an id or a directory), read under its lock: a
   * HarnessError with exit code 75 while a turn runs in it.
   */
  async exportText(idOrDir: string): Promise<{ id: string; text: string; files: number }> {
    const { exportSession, archiveText } = await archives();
    const a = await exportSession(this.dirOf(idOrDir));
    return { id: a.id, text: archiveText(a), files: a.files.length };
  }

  /**
   * Imports an archive's text (from `source`, named in errors) into this workspace's sessions
   * directory, verified whole first; `as` imports it under a new id. An id that exists in any
   * workspace's group is refused.
   */
  async importText(
    text: string,
    source: string,
    as?: string,
  ): Promise<{ id: string; dir: string }> {
    const { parseArchive, verifyArchive, importSession } = await archives();
    const a = parseArchive(text, source);
    const files = verifyArchive(a, source);
    return importSession(a, files, {
      sessionsDir: this.#paths.sessions,
      as,
      exists: (id) => this.find(id) !== undefined,
    });
  }
}
