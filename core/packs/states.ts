/**
 * The states of a harness's packs (seed 000 §5 "State"): one instance per
 * pack, scope and owner key, loaded on first use from the pack's `states`
 * module and its log.
 *
 * - session: `<session>/plugin-state/<pack>/` — lives on the session, rolls
 *   back with it (rewind), survives restart; a helper keeps the conversation
 *   session it was given;
 * - project: `$HARNESS_HOME/plugin-state/<pack>/project/<name>-<hash>/` — one
 *   per project (two projects do not share it), durable (fsync), never rolled
 *   back;
 * - global: `$HARNESS_HOME/plugin-state/<pack>/global/` — shared by every
 *   project that binds it explicitly;
 * - a named bot's own reducer: a state of the bot's scope named `<pack>+<bot>`
 *   (one instance per session, project or home: whose state the bot sees);
 * - private: the foreground bot program's own reducer, in memory.
 *
 * @module
 */
import { basename, join } from "../early/mod.ts";
import { atomicWriteSync, HarnessError, isOwnFile } from "../base/mod.ts";
import { FileStateLog, MemoryStateLog, sessionLogDir } from "../session/mod.ts";
import type { PackManifest } from "./manifest.ts";
import { type StateCommit, StateInstance, type StateModule, type StateScope } from "./state.ts";

/** What loads a `states` module (supplied by stdlib-harness). */
export type StateModuleLoader = (req: {
  file: string;
  root: string;
  pack: string;
  scope: StateScope;
  log(text: string): void;
}) => Promise<StateModule>;

/** A conversation session (what session-scope states are keyed by). */
export interface SessionRef {
  /** The session's id. */
  id: string;
  /** The session's directory. */
  dir: string;
}

/** Options of {@link StateHost}. */
export interface StateHostOptions {
  /** `$HARNESS_HOME`. */
  home: string;
  /** The project root (the directory holding the most local project `.harness`). */
  project: string;
  /** Loads state modules (absent: states cannot be opened). */
  loader?: StateModuleLoader;
  /** The manifest of a loaded pack by name. */
  manifest(pack: string): PackManifest | undefined;
  /** Writes a line to the harness log. */
  log(line: string): void;
  /** Called after each accepted entry. */
  onCommit?(c: StateCommit): void;
}

/** FNV-1a (32-bit) as hex: a short, stable name for a path. */
function shortHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x811c9dc5 | 1);
  }
  return ((h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0"))
    .slice(0, 12);
}

/** The states of the packs of one harness. */
export class StateHost {
  #o: StateHostOptions;
  #instances = new Map<string, Promise<StateInstance>>();
  #private = new Map<string, StateInstance>();

  /** Creates the host; states are opened on first use. */
  constructor(opts: StateHostOptions) {
    this.#o = opts;
  }

  /** The project root states of project scope are keyed by. */
  get project(): string {
    return this.#o.project;
  }

  /** Where a pack's project or global log lives. */
  logDir(pack: string, scope: "project" | "global", project: string = this.#o.project): string {
    const base = join(this.#o.home, "plugin-state", pack);
    if (scope === "global") return join(base, "global");
    const name = (basename(project) || "root").replace(/[^A-Za-z0-9._-]/g, "_");
    return join(base, "project", `${name}-${shortHash(project)}`);
  }

  /** The state of a pack at a scope (loaded on first use). */
  instance(
    pack: string,
    scope: "session" | "project" | "global",
    session?: SessionRef,
  ): Promise<StateInstance> {
    return this.#instance(pack, scope, session, () => this.#module(pack, scope));
  }

  /**
   * A named bot's own state (its program's reducer, `call/method 'self`) at the bot's scope:
   * one instance per session, project or home, stored where the pack states of that scope
   * live, under the name `<pack>+<bot>` (a pack name has no `+`).
   */
  botState(
    pack: string,
    bot: string,
    scope: "session" | "project" | "global",
    module: StateModule,
    session?: SessionRef,
  ): Promise<StateInstance> {
    return this.#instance(`${pack}+${bot}`, scope, session, () => Promise.resolve(module));
  }

  #instance(
    name: string,
    scope: "session" | "project" | "global",
    session: SessionRef | undefined,
    module: () => Promise<StateModule>,
  ): Promise<StateInstance> {
    if (scope === "session" && !session) {
      return Promise.reject(
        new HarnessError(
          `the session state of ${name} needs a session (none is running)`,
          "give the session: --session <id>",
        ),
      );
    }
    const key = scope === "session"
      ? session!.dir
      : scope === "project"
      ? this.#o.project
      : "global";
    const id = `${name}\0${scope}\0${key}`;
    let p = this.#instances.get(id);
    if (!p) {
      p = module().then((m) => this.#open(name, m, scope, key, session));
      this.#instances.set(id, p);
      p.catch(() => this.#instances.delete(id));
    }
    return p;
  }

  /** A pack's `states` module of a scope. */
  async #module(pack: string, scope: "session" | "project" | "global"): Promise<StateModule> {
    const m = this.#o.manifest(pack);
    if (!m) {
      throw new HarnessError(`no pack named "${pack}"`, "list the packs: hs packs");
    }
    const file = m.states[scope];
    if (!file) {
      throw new HarnessError(
        `pack ${pack} has no ${scope} state`,
        `its states: ${Object.keys(m.states).join(", ") || "none"}`,
      );
    }
    if (!this.#o.loader) {
      throw new HarnessError("this build has no state-module loader (stdlib-harness)");
    }
    return await this.#o.loader({
      file,
      root: m.root,
      pack,
      scope,
      log: (t) => this.#o.log(`[pack ${pack} ${scope} state] ${t}`),
    });
  }

  /** Opens a state over its log (`name`: a pack, or `<pack>+<bot>` for a bot's own). */
  #open(
    name: string,
    module: StateModule,
    scope: "session" | "project" | "global",
    key: string,
    session?: SessionRef,
  ): StateInstance {
    const dir = scope === "session" ? sessionLogDir(session!.dir, name) : this.logDir(name, scope);
    const log = FileStateLog.open(dir, { durable: scope !== "session" });
    if (scope === "project" && !isOwnFile(join(dir, "project.txt"))) {
      try {
        // a rename replaces a link there instead of writing through it
        atomicWriteSync(join(dir, "project.txt"), this.#o.project + "\n");
      } catch { /* informative only */ }
    }
    return StateInstance.open(
      { pack: name, scope, key: scope === "session" ? session!.id : key },
      module,
      log,
      (c) => this.#o.onCommit?.(c),
    );
  }

  /** Registers a bot program's private state (its own reducer; the log stays in memory). */
  privateState(pack: string, bot: string, module: StateModule): StateInstance {
    const key = `${pack}/${bot}`;
    const s = StateInstance.open(
      { pack, scope: "private", key },
      module,
      new MemoryStateLog(),
      (c) => this.#o.onCommit?.(c),
    );
    this.#private.set(key, s);
    return s;
  }

  /** Revisions of the private states (`<pack>/<bot>` → revision). */
  privateRevisions(keys?: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, s] of this.#private) if (!keys || keys.includes(k)) out[k] = s.revision;
    return out;
  }

  /** Rolls private states back to recorded revisions (a rewind in this process). */
  rollbackPrivate(revisions: Record<string, number>): void {
    for (const [k, rev] of Object.entries(revisions)) this.#private.get(k)?.rollback(rev);
  }

  /** Forgets the loaded session states of a session (after a rewind they load again). */
  forgetSession(sessionDir: string): void {
    for (const id of [...this.#instances.keys()]) {
      const [, scope, key] = id.split("\0");
      if (scope === "session" && key === sessionDir) this.#instances.delete(id);
    }
  }
}
