/**
 * Where a Claude Code project keeps its files, as hs finds them: the user's
 * `~/.claude/`, then every directory from `/` down to the working directory
 * that holds a `.claude/` directory or a `CLAUDE.md` — each project one only
 * when its workspace is trusted (an untrusted one is listed, never read).
 *
 * The layout is cached by the mtimes of what it looked at (the walk's
 * directories, each `.claude/` and its `commands/`, `agents/`, `skills/`), so
 * asking again before every stage costs a handful of stats when nothing
 * changed. Files are read by {@link cachedFile} (by mtime), when used.
 *
 * @module
 */
import { dirname, join } from "../../early/mod.ts";
import { childKind, dirEntries, MTIME_SLACK_MS, statOrUndefined } from "../../base/mod.ts";

/** One place Claude Code files are read from. */
export interface ClaudePlace {
  /** `user` (`~/.claude`) or `project` (a workspace directory of the walk). */
  scope: "user" | "project";
  /** The directory the place belongs to: the user's home, or the project directory. */
  root: string;
  /** Its `.claude` directory (it may not exist: a project with only a `CLAUDE.md`). */
  claude: string;
}

/** What the layout found, lowest priority (most global) first. */
export interface ClaudeSnapshot {
  /** The places read: the user's, then trusted projects from `/` down. */
  places: ClaudePlace[];
  /** Project directories left out because their workspace is not trusted. */
  untrusted: string[];
  /** `CLAUDE.md` files, global → local, each once (a link to the same file counts once). */
  instructions: string[];
  /** `.claude/skills` directories (Agent Skills roots), lowest first. */
  skillRoots: string[];
  /** `.claude/commands` directories, lowest first. */
  commandDirs: string[];
  /** `.claude/agents` directories, lowest first. */
  agentDirs: string[];
  /** `settings.json` / `settings.local.json` files that exist, lowest first. */
  settingsFiles: string[];
}

/** Inputs of the layout. */
export interface ClaudeLayoutOptions {
  /** The working directory the walk starts from. */
  cwd: string;
  /** The user's home (`~/.claude` lives there). */
  userHome: string;
  /** Whether a project's `.claude` (by its workspace) is trusted. */
  isTrusted(claudeDir: string): boolean;
}

interface Stamp {
  path: string;
  mtime: number;
}

function fresh(stamps: Stamp[]): boolean {
  for (const s of stamps) {
    const m = statOrUndefined(s.path)?.mtime?.getTime() ?? -2;
    if (m !== s.mtime) return false;
  }
  return true;
}

/** The Claude Code layout seen from one working directory (cached by mtimes). */
export class ClaudeLayout {
  #o: ClaudeLayoutOptions;
  #hit?: { snapshot: ClaudeSnapshot; stamps: Stamp[] };

  /** Creates the layout of a working directory. */
  constructor(opts: ClaudeLayoutOptions) {
    this.#o = opts;
  }

  /** The working directory. */
  get cwd(): string {
    return this.#o.cwd;
  }

  /** Forgets the cached snapshot (after trust changes). */
  invalidate(): void {
    this.#hit = undefined;
  }

  /** The current snapshot, re-used while nothing it looked at changed. */
  current(): ClaudeSnapshot {
    if (this.#hit && fresh(this.#hit.stamps)) return this.#hit.snapshot;
    const stamps: Stamp[] = [];
    const snapshot = this.#scan(stamps);
    this.#hit = { snapshot, stamps };
    return snapshot;
  }

  #scan(stamps: Stamp[]): ClaudeSnapshot {
    const watch = (path: string) => {
      const m = statOrUndefined(path)?.mtime?.getTime();
      // a missing path is covered by its parent's stamp; a fresh change forces a rescan
      if (m === undefined) stamps.push({ path, mtime: -2 });
      else stamps.push({ path, mtime: Date.now() - m <= MTIME_SLACK_MS ? -1 : m });
    };
    const { cwd, userHome } = this.#o;
    const places: ClaudePlace[] = [{
      scope: "user",
      root: userHome,
      claude: join(userHome, ".claude"),
    }];
    const untrusted: string[] = [];
    const walk: string[] = [];
    for (let cur = cwd;; cur = dirname(cur)) {
      walk.push(cur);
      if (dirname(cur) === cur) break;
    }
    for (const d of walk.reverse()) {
      watch(d);
      if (d === userHome) continue;
      const hasDir = childKind(d, ".claude") === "dir";
      if (!hasDir && childKind(d, "CLAUDE.md") !== "file") continue;
      if (!this.#o.isTrusted(join(d, ".claude"))) {
        untrusted.push(d);
        continue;
      }
      places.push({ scope: "project", root: d, claude: join(d, ".claude") });
    }
    return collect(places, untrusted, watch);
  }
}

/** What the places hold. */
function collect(
  places: ClaudePlace[],
  untrusted: string[],
  watch: (path: string) => void,
): ClaudeSnapshot {
  const snap: ClaudeSnapshot = {
    places,
    untrusted,
    instructions: [],
    skillRoots: [],
    commandDirs: [],
    agentDirs: [],
    settingsFiles: [],
  };
  const seen = new Set<string>();
  const instruction = (path: string) => {
    if (!statOrUndefined(path)?.isFile) return;
    let real = path;
    try {
      real = Deno.realPathSync(path);
    } catch { /* unreadable: shown as is */ }
    if (seen.has(real)) return;
    seen.add(real);
    snap.instructions.push(path);
  };
  for (const p of places) {
    watch(p.claude);
    const e = dirEntries(p.claude);
    if (p.scope === "project") {
      // an AGENTS.md hs reads (beside a `.harness/`) that CLAUDE.md links to is there once
      const agents = join(p.root, "AGENTS.md");
      if (childKind(p.root, ".harness") === "dir" && statOrUndefined(agents)?.isFile) {
        try {
          seen.add(Deno.realPathSync(agents));
        } catch { /* unreadable */ }
      }
      instruction(join(p.root, "CLAUDE.md"));
    }
    if (!e) continue;
    if (e.files.has("CLAUDE.md")) instruction(join(p.claude, "CLAUDE.md"));
    for (
      const [sub, into] of [
        ["skills", snap.skillRoots],
        ["commands", snap.commandDirs],
        ["agents", snap.agentDirs],
      ] as const
    ) {
      if (!e.dirs.has(sub)) continue;
      watch(join(p.claude, sub));
      into.push(join(p.claude, sub));
    }
    for (const f of ["settings.json", "settings.local.json"]) {
      if (e.files.has(f)) snap.settingsFiles.push(join(p.claude, f));
    }
  }
  return snap;
}

const fileCache = new Map<string, { mtime: number; value: unknown }>();

/**
 * A file's text parsed by `parse`, cached by its mtime (and by what parses it); undefined
 * when the file cannot be read.
 */
export function cachedFile<T>(
  path: string,
  kind: string,
  parse: (text: string) => T,
): T | undefined {
  const st = statOrUndefined(path);
  if (!st?.isFile) return undefined;
  const mtime = st.mtime?.getTime() ?? -1;
  const key = `${kind}\0${path}`;
  const hit = fileCache.get(key);
  if (hit && hit.mtime === mtime) return hit.value as T;
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
  const value = parse(text);
  if (Date.now() - mtime > MTIME_SLACK_MS) fileCache.set(key, { mtime, value });
  return value;
}

/** The `.md` files of directories by name (a later directory wins), sorted by name. */
export function markdownFiles(dirs: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of dirs) {
    for (const name of dirEntries(d)?.names ?? []) {
      if (!name.endsWith(".md") || name.startsWith(".")) continue;
      out.set(name.slice(0, -3), join(d, name));
    }
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
