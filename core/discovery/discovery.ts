/**
 * Discovery of `.harness/` sources and what they hold: tools, hooks,
 * commands, providers, prompts, skills, packs, settings and AGENTS.md.
 *
 * The walk (PROTOCOLS "Discovery"): `$HARNESS_HOME` when the walk does not
 * include it (lowest), then every `<dir>/.harness` from `/` down to the
 * working directory, each preceded by its `plugins/*` packs (sorted). The
 * highest-priority source wins per basename.
 *
 * Re-checking is cheap: a snapshot remembers the mtime of every directory it
 * read (and of every file it skipped as non-executable, since `chmod +x` does
 * not touch the directory), and {@link Discovery.current} re-stats only those.
 *
 * @module
 */
import { basename, dirname, join } from "../early/mod.ts";
import {
  childKind,
  dirEntries,
  isExecutableInfo,
  MTIME_SLACK_MS,
  statOrUndefined,
} from "../base/mod.ts";

/**
 * Where a source came from: `$HARNESS_HOME`, a project's `.harness/`, a pack in one, or a
 * directory a `sources` stage hook listed.
 */
export type SourceKind = "home" | "project" | "pack" | "listed";

/** One source directory (a `.harness/` or a pack inside one). */
export interface Source {
  /** The source's directory. */
  dir: string;
  /** What kind of source it is. */
  kind: SourceKind;
  /** The `.harness` directory this source belongs to. */
  root: string;
  /** True when this source is a provider plugin (holds `providers/<own basename>`). */
  providerPlugin: boolean;
}

/** Something discovery left out, with the reason (shown by `hs doctor`). */
export interface Skipped {
  /** The file or directory left out. */
  path: string;
  /** Why (e.g. "not executable (chmod +x to enable)"). */
  reason: string;
}

/** An executable (or `.conf`) found in a source. */
export interface Found {
  /** The name it is known by (the file name; a `.conf` without its extension). */
  name: string;
  /** Its absolute path. */
  path: string;
  /** The source it was found in. */
  source: Source;
}

/** A discovered provider: an executable or a `.conf` variant. */
export interface FoundProvider extends Found {
  /** An executable provider or a `.conf` variant of a built-in protocol. */
  kind: "executable" | "conf";
}

/** Everything discovery found for one set of sources. */
export interface Snapshot {
  /** Active sources, lowest priority first. */
  sources: Source[];
  /** All sources before provider scoping (for resolution). */
  allSources: Source[];
  /** What was left out, with the reasons. */
  skipped: Skipped[];
  /** Executable tools by name (the most local source wins). */
  tools: Map<string, Found>;
  /** stage → basename → found */
  hooks: Map<string, Map<string, Found>>;
  /** Executable commands (`commands/`) by name. */
  commands: Map<string, Found>;
  /** providers from every source (not scoped), highest wins per name */
  providers: Map<string, FoundProvider>;
  /** system prompt files in order: AGENTS.md then prompts/*.md per source */
  promptFiles: string[];
  /** skills roots (`<source>/skills`), lowest first */
  skillRoots: string[];
  /** settings.conf of the most local source that has one */
  settingsFile?: string;
  /** `.auth.json` files, lowest first */
  authFiles: string[];
  /** `.harness` dirs that were left out because the workspace is not trusted */
  untrusted: string[];
}

/** Inputs of a discovery. */
export interface DiscoveryOptions {
  /** The working directory the walk for `.harness/` starts from. */
  cwd: string;
  /** `$HARNESS_HOME`. */
  home: string;
  /** Is this `.harness` directory trusted? (HARNESS_HOME always is.) */
  isTrusted(harnessDir: string): boolean;
}

interface Stamp {
  path: string;
  mtime: number;
  mode: number;
}

/** True when no stamped path changed. */
function fresh(stamps: Stamp[]): boolean {
  for (const s of stamps) {
    const info = statOrUndefined(s.path);
    if (!info || (info.mtime?.getTime() ?? 0) !== s.mtime || info.mode !== s.mode) return false;
  }
  return true;
}

/** Names in a directory known to exist (from its parent's listing). */
function names(dir: string): string[] {
  return dirEntries(dir)?.names ?? [];
}

/** A source dir plus whether it holds anything that runs code. */
function holdsCode(dir: string): boolean {
  const e = dirEntries(dir);
  if (!e) return false;
  for (const sub of ["tools", "commands", "providers", "plugins"]) {
    if (e.dirs.has(sub) && names(join(dir, sub)).length > 0) return true;
  }
  if (e.dirs.has("hooks.d")) {
    for (const stage of names(join(dir, "hooks.d"))) {
      if (names(join(dir, "hooks.d", stage)).length > 0) return true;
    }
  }
  return false;
}

/** The `.harness` directories of the walk, lowest priority first. */
export function walkHarnessDirs(cwd: string, home: string): { dir: string; kind: SourceKind }[] {
  const found: string[] = [];
  let cur = cwd;
  for (;;) {
    const h = join(cur, ".harness");
    // a stat of the child, not a listing of `cur`: an ancestor like $HOME or /tmp may hold
    // hundreds of entries (and links, each stat-ed by a listing) — one stat per level either way
    if (statOrUndefined(h)?.isDirectory) found.push(h);
    const parent = dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  found.reverse();
  const out: { dir: string; kind: SourceKind }[] = [];
  if (!found.includes(home) && dirEntries(home) !== undefined) {
    out.push({ dir: home, kind: "home" });
  }
  for (const d of found) out.push({ dir: d, kind: d === home ? "home" : "project" });
  return out;
}

/**
 * Discovery with a cache keyed by directory mtimes. One instance per
 * working directory and home.
 */
export class Discovery {
  #opts: DiscoveryOptions;
  /** One snapshot per provider scope, each with the stamps of what it read. */
  #cache = new Map<string, { snapshot: Snapshot; stamps: Stamp[] }>();
  #stamps: Stamp[] = [];

  /** Creates a discovery; snapshots are taken (and cached) on demand. */
  constructor(opts: DiscoveryOptions) {
    this.#opts = opts;
  }

  /** Source directories a `sources` stage chain listed (replacing the walk), if any. */
  #listed?: string[];

  /** Forgets the cache (after trust changes). */
  invalidate(): void {
    this.#cache.clear();
  }

  /**
   * The current snapshot, re-using the cached one when no watched directory
   * changed. `provider`/`protocol` scope provider plugins. When a `sources` chain listed
   * the sources ({@link setListed}), they replace the walk's.
   */
  current(provider = "", protocol = ""): Snapshot {
    // unscoped with no listed sources: the walk's own snapshot (one scan, not two)
    if (!provider && !protocol && !this.#listed) return this.walk();
    return this.#cached(`${provider}\0${protocol}`, provider, protocol, this.#listed);
  }

  /**
   * The walk's own snapshot (what the `sources` stage starts from), unscoped, whatever a
   * `sources` chain listed. The same object as long as nothing it read changed.
   */
  walk(): Snapshot {
    return this.#cached("\0walk", "", "", undefined);
  }

  /**
   * Sets the source directories (lowest priority first) a `sources` stage chain printed;
   * undefined goes back to the walk's. Untrusted project sources stay out either way.
   */
  setListed(dirs: string[] | undefined): void {
    const same = dirs === this.#listed ||
      (dirs !== undefined && this.#listed !== undefined &&
        dirs.join("\0") === this.#listed.join("\0"));
    if (same) return;
    this.#listed = dirs;
    for (const key of [...this.#cache.keys()]) if (key !== "\0walk") this.#cache.delete(key);
  }

  #cached(key: string, provider: string, protocol: string, listed?: string[]): Snapshot {
    const hit = this.#cache.get(key);
    if (hit && fresh(hit.stamps)) return hit.snapshot;
    this.#stamps = [];
    const snapshot = this.#scan(provider, protocol, listed);
    if (this.#cache.size > 8) this.#cache.clear();
    this.#cache.set(key, { snapshot, stamps: this.#stamps });
    return snapshot;
  }

  /** Watches an existing path (a missing one is covered by its parent's mtime). */
  #watch(path: string): void {
    const info = statOrUndefined(path);
    if (!info) return;
    const mtime = info.mtime?.getTime() ?? 0;
    // Changed within the mtime precision window: force a rescan next time.
    if (Date.now() - mtime <= MTIME_SLACK_MS) this.#stamps.push({ path, mtime: -1, mode: -1 });
    else this.#stamps.push({ path, mtime, mode: info.mode ?? 0 });
  }

  /** A snapshot of the sources (the walk's, or the listed ones) scoped to a provider. */
  #scan(provider: string, protocol: string, listed?: string[]): Snapshot {
    this.#watchWalk();
    const skipped: Skipped[] = [];
    const untrusted: string[] = [];
    let allSources = this.#walkSources(skipped, untrusted);
    if (listed) allSources = listedSources(allSources, listed, untrusted, skipped);
    const providers = this.#providers(allSources, skipped);
    const sources = scopedSources(allSources, provider, protocol);
    const c = this.#contents(sources, skipped);
    return {
      sources,
      allSources,
      skipped,
      tools: c.tools,
      hooks: c.hooks,
      commands: c.commands,
      providers,
      promptFiles: c.promptFiles,
      skillRoots: c.skillRoots,
      settingsFile: c.settingsFile,
      authFiles: c.authFiles,
      untrusted,
    };
  }

  /** Watches every ancestor (a new `.harness` anywhere on the walk is seen) and the home. */
  #watchWalk(): void {
    const { cwd, home } = this.#opts;
    let cur = cwd;
    for (;;) {
      this.#watch(cur);
      const parent = dirname(cur);
      if (parent === cur) break;
      cur = parent;
    }
    // A missing home is covered by its closest existing ancestor.
    let h = home;
    while (!statOrUndefined(h) && dirname(h) !== h) h = dirname(h);
    this.#watch(h);
  }

  /** The walk's sources, each preceded by its packs; untrusted projects holding code left out. */
  #walkSources(skipped: Skipped[], untrusted: string[]): Source[] {
    const { cwd, home } = this.#opts;
    const allSources: Source[] = [];
    for (const { dir, kind } of walkHarnessDirs(cwd, home)) {
      this.#watch(dir);
      if (kind === "project" && !this.#opts.isTrusted(dir) && holdsCode(dir)) {
        untrusted.push(dir);
        skipped.push({ path: dir, reason: "workspace not trusted (run: hs trust)" });
        continue;
      }
      const packsDir = join(dir, "plugins");
      const packs = dirEntries(packsDir);
      if (packs) {
        this.#watch(packsDir);
        for (const name of packs.names) {
          if (!packs.dirs.has(name)) continue;
          const p = join(packsDir, name);
          allSources.push({ dir: p, kind: "pack", root: dir, providerPlugin: isProviderPlugin(p) });
        }
      }
      allSources.push({ dir, kind, root: dir, providerPlugin: isProviderPlugin(dir) });
    }
    return allSources;
  }

  /** Providers from every source (not scoped), highest wins per name. */
  #providers(allSources: Source[], skipped: Skipped[]): Map<string, FoundProvider> {
    const providers = new Map<string, FoundProvider>();
    for (const source of allSources) {
      this.#watch(source.dir);
      if (!dirEntries(source.dir)?.dirs.has("providers")) continue;
      const pdir = join(source.dir, "providers");
      this.#watch(pdir);
      for (const name of names(pdir)) {
        const path = join(pdir, name);
        const info = statOrUndefined(path);
        if (!info?.isFile) continue;
        if (name.endsWith(".conf")) {
          providers.set(name.slice(0, -5), { name: name.slice(0, -5), path, source, kind: "conf" });
        } else if (isExecutableInfo(info)) {
          providers.set(name, { name, path, source, kind: "executable" });
        } else if (!name.startsWith(".")) {
          this.#watch(path);
          skipped.push({ path, reason: "not executable (chmod +x to enable)" });
        }
      }
    }
    return providers;
  }

  /** The executables of a directory into `into` (by name; a later source wins). */
  #collect(dir: string, source: Source, into: Map<string, Found>, skipped: Skipped[]): void {
    this.#watch(dir);
    for (const name of names(dir)) {
      if (name.startsWith(".")) continue;
      const path = join(dir, name);
      const info = statOrUndefined(path);
      if (!info?.isFile) continue;
      if (isExecutableInfo(info)) into.set(name, { name, path, source });
      else {
        this.#watch(path);
        skipped.push({ path, reason: "not executable (chmod +x to enable)" });
      }
    }
  }

  /** What the scoped sources hold: tools, commands, hooks, prompts, skills, settings, auth. */
  #contents(
    sources: Source[],
    skipped: Skipped[],
  ): Pick<
    Snapshot,
    "tools" | "hooks" | "commands" | "promptFiles" | "skillRoots" | "settingsFile" | "authFiles"
  > {
    const tools = new Map<string, Found>();
    const commands = new Map<string, Found>();
    const hooks = new Map<string, Map<string, Found>>();
    const promptFiles: string[] = [];
    const skillRoots: string[] = [];
    const authFiles: string[] = [];
    let settingsFile: string | undefined;
    for (const source of sources) {
      const d = source.dir;
      const e = dirEntries(d);
      if (!e) continue;
      if (e.dirs.has("tools")) this.#collect(join(d, "tools"), source, tools, skipped);
      if (e.dirs.has("commands")) this.#collect(join(d, "commands"), source, commands, skipped);
      if (e.dirs.has("hooks.d")) {
        const hooksDir = join(d, "hooks.d");
        this.#watch(hooksDir);
        for (const stage of names(hooksDir)) {
          let m = hooks.get(stage);
          if (!m) hooks.set(stage, m = new Map());
          this.#collect(join(hooksDir, stage), source, m, skipped);
        }
      }
      if (source.kind !== "pack" && childKind(dirname(d), "AGENTS.md") === "file") {
        promptFiles.push(join(dirname(d), "AGENTS.md"));
      }
      if (e.dirs.has("prompts")) {
        const pdir = join(d, "prompts");
        this.#watch(pdir);
        for (const name of names(pdir)) {
          if (name.endsWith(".md")) promptFiles.push(join(pdir, name));
        }
      }
      if (e.dirs.has("skills")) skillRoots.push(join(d, "skills"));
      if (e.files.has("settings.conf")) settingsFile = join(d, "settings.conf");
      if (e.files.has(".auth.json")) authFiles.push(join(d, ".auth.json"));
    }
    for (const m of hooks.values()) {
      for (const [k, v] of [...m.entries()]) if (!v) m.delete(k);
    }
    return { tools, hooks, commands, promptFiles, skillRoots, settingsFile, authFiles };
  }
}

/**
 * A `sources` chain's list replaces the walk's: known sources keep what they are; an
 * untrusted project stays out; a directory this run may not read is skipped with a hint.
 */
function listedSources(
  walkedSources: Source[],
  listed: string[],
  untrusted: string[],
  skipped: Skipped[],
): Source[] {
  const walked = new Map(walkedSources.map((s) => [s.dir, s]));
  const blocked = (d: string) => untrusted.some((u) => d === u || d.startsWith(u + "/"));
  const allSources: Source[] = [];
  for (const dir of listed) {
    if (blocked(dir) || allSources.some((s) => s.dir === dir)) continue;
    if (!walked.has(dir) && !readable(dir)) {
      skipped.push({
        path: dir,
        reason:
          `listed by a sources hook but not readable by this run (allow it: hs --allow-read ${dir})`,
      });
      continue;
    }
    allSources.push(
      walked.get(dir) ??
        { dir, kind: "listed", root: dir, providerPlugin: isProviderPlugin(dir) },
    );
  }
  return allSources;
}

/** The sources of a provider scope: a provider plugin only for its own provider (or protocol). */
function scopedSources(allSources: Source[], provider: string, protocol: string): Source[] {
  return allSources.filter((s) => {
    if (!s.providerPlugin || !provider) return true;
    const base = basename(s.dir);
    if (base === provider || base === protocol) return true;
    const pnames = names(join(s.dir, "providers"));
    return pnames.includes(provider) || pnames.includes(`${provider}.conf`);
  });
}

/** False when this process may not read `dir` (a permission-scoped run); true otherwise. */
function readable(dir: string): boolean {
  try {
    Deno.statSync(dir);
    return true;
  } catch (err) {
    return !(err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied);
  }
}

function isProviderPlugin(dir: string): boolean {
  if (!dirEntries(dir)?.dirs.has("providers")) return false;
  const base = basename(dir);
  const pdir = join(dir, "providers");
  const files = dirEntries(pdir)?.files;
  if (!files) return false;
  if (files.has(base)) {
    const bin = statOrUndefined(join(pdir, base));
    if (bin && isExecutableInfo(bin)) return true;
  }
  return files.has(`${base}.conf`);
}
