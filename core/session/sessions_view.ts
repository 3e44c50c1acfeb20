/**
 * The sessions a front end lists, shows and opens: this workspace's (or every workspace's)
 * sessions, a session's directory, a new session. A view over the places of
 * groups.ts, built from the paths alone — `hs session` and `hs resume` use it
 * without starting a harness.
 *
 * @module
 */
import { join } from "node:path";
import { HarnessError, type Paths } from "../base/mod.ts";
import { everySession, findSessionDir, type StoredSession, workspaceSessions } from "./groups.ts";
import { Session } from "./session.ts";

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
}
