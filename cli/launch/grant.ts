/**
 * What the harness process may touch when it runs through the launcher
 * (`deno task hs`): read the harness, its home, the workspace and the `.harness`
 * directories of the walk; write the home, the workspace, the sessions and the
 * log; reach the hosts of the providers the user configured (and of the
 * built-in ones that are ready or selected); run bubblewrap, setsid, kill and
 * the discovered provider and command executables. Plugins in `plugins.json`,
 * the workspace's `.mcp.json` servers, the user's `floor.json` and the floor
 * flags widen it explicitly.
 *
 * The computation loads no plugin and runs nothing: it reads files. It grants
 * for every source found, trusted or not — the harness decides what to load,
 * and a workspace trusted at the prompt then works without a second launch.
 * Files it cannot parse are skipped here and reported by the harness.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "../../core/early/mod.ts";
import {
  dirEntries,
  isExecutableInfo,
  parseKeyValues,
  readTextOrUndefined,
  resolvePaths,
  resolvePluginModule,
  statOrUndefined,
} from "../../core/base/mod.ts";
import { walkHarnessDirs } from "../../core/discovery/mod.ts";
import { SYSTEM_BIN_DIRS, systemBinary } from "../../core/exec/mod.ts";
// the sandbox's locator alone: core/sandbox/mod.ts would load the whole sandbox (~6 ms CPU)
import { bwrapBinary } from "../../core/sandbox/locate/mod.ts";
import { bundledConfs } from "../../plugins/providers/bundled/mod.ts";
import { flagValue, flagValues, hasFlag, scanArgs } from "./argv.ts";

/** The Deno permissions of one run. */
export interface Grant {
  /** Paths, or "all". */
  read: string[] | "all";
  /** Paths, or "all". */
  write: string[] | "all";
  /** Hosts (`host:port`), or "all". */
  net: string[] | "all";
  /** Binaries, or "all". */
  run: string[] | "all";
  /** Why each host is there (for `HS_LAUNCH_DEBUG`). */
  notes: string[];
}

/** What the grant is computed from. */
export interface GrantInput {
  argv: string[];
  env: Record<string, string | undefined>;
  /** The user's working directory. */
  cwd: string;
  /** The harness installation (the repository root). */
  root: string;
}

/** Well-known endpoints of the built-in environment providers. */
const BUILTIN: Record<string, { urlVar: string; url: string; keyVar: string }> = {
  anthropic: {
    urlVar: "ANTHROPIC_API_URL",
    url: "https://api.anthropic.com",
    keyVar: "ANTHROPIC_API_KEY",
  },
  openai: { urlVar: "OPENAI_API_URL", url: "https://api.openai.com", keyVar: "OPENAI_API_KEY" },
};

/** `host:port` of a URL (default ports made explicit). */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    return `${u.hostname}:${port}`;
  } catch {
    return undefined;
  }
}

/** Finds an executable by name on PATH (or the system directories). */
export function which(name: string, path: string | undefined): string | undefined {
  for (const d of (path ?? "").split(":").concat(["/usr/bin", "/bin", "/usr/local/bin"])) {
    if (!d.startsWith("/")) continue;
    const info = statOrUndefined(join(d, name));
    if (info && isExecutableInfo(info)) return join(d, name);
  }
  return undefined;
}

function readJson(path: string): unknown {
  const text = readTextOrUndefined(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Expands `~`, `$HARNESS_HOME`, `$WORKSPACE` and relative paths. */
function expand(p: string, places: { cwd: string; home: string; userHome: string }): string {
  let s = p.trim().replace(/^\$WORKSPACE(?=\/|$)/, places.cwd)
    .replace(/^\$HARNESS_HOME(?=\/|$)/, places.home);
  if (s === "~" || s.startsWith("~/")) s = places.userHome + s.slice(1);
  return isAbsolute(s) ? s : resolve(places.cwd, s);
}

/** Provider names with a stored credential in an `.auth.json`. */
function storedNames(path: string): string[] {
  const data = readJson(path);
  return data && typeof data === "object" && !Array.isArray(data) ? Object.keys(data) : [];
}

interface Needs {
  read: Set<string>;
  write: Set<string>;
  hosts: Set<string>;
  run: Set<string>;
  notes: string[];
}

/**
 * What the configured built-in plugins need: `mcp` runs its stdio servers' commands
 * (and they read their installation) and reaches its remote servers' hosts; `audit-jsonl`
 * writes its file; `memory` syncs with a directory; `connector-cloud` reaches its service.
 */
function builtinPluginNeeds(
  e: unknown,
  n: Needs,
  env: Record<string, string | undefined>,
  places: { cwd: string; home: string; userHome: string },
): void {
  const entry = e as { id?: unknown; enabled?: unknown; config?: unknown };
  if (entry?.enabled === false) return;
  const config = (entry?.config ?? {}) as Record<string, unknown>;
  const expandVars = (s: string) =>
    s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, v, d) => env[v] || d || "");
  const host = (url: unknown, why: string) => {
    const h = typeof url === "string" ? hostOf(expandVars(url)) : undefined;
    if (h && !n.hosts.has(h)) {
      n.hosts.add(h);
      n.notes.push(`${h}: ${why}`);
    }
  };
  if (entry.id === "mcp") {
    const servers: [string, Record<string, unknown>][] = [];
    const add = (m: unknown) => {
      if (m && typeof m === "object") {
        for (const [k, v] of Object.entries(m)) servers.push([k, (v ?? {}) as never]);
      }
    };
    add(config.servers);
    for (const f of strings(config.files)) {
      add((readJson(expand(f, places)) as { mcpServers?: unknown } | undefined)?.mcpServers);
      n.read.add(expand(f, places));
    }
    for (const [name, s] of servers) {
      if (s.disabled === true) continue;
      if (typeof s.url === "string") host(s.url, `mcp server ${name}`);
      else if (typeof s.command === "string") {
        const c = expandVars(s.command);
        const bin = c.startsWith("/") ? c : which(c, env.PATH) ?? c;
        n.run.add(bin);
        // the OS sandbox binds the program's directory: the process must be able to see it
        if (bin.startsWith("/")) n.read.add(dirname(bin));
        for (const r of strings(s.read)) n.read.add(expand(expandVars(r), places));
        if (typeof s.cwd === "string") n.read.add(expand(expandVars(s.cwd), places));
      }
    }
  } else if (entry.id === "audit-jsonl" && typeof config.path === "string") {
    n.write.add(dirname(config.path));
  } else if (entry.id === "memory") {
    if (typeof config.dir === "string") n.write.add(config.dir);
    const sync = config.sync as { dir?: unknown } | undefined;
    if (typeof sync?.dir === "string") n.write.add(sync.dir);
  } else if (entry.id === "connector-cloud") {
    host(config.url, "connector-cloud");
  }
}

/** Where a grant's paths are expanded from. */
interface Places {
  cwd: string;
  home: string;
  userHome: string;
}

/** Computes the grant of a run: each kind of need is a step, in this order. */
export function computeGrant(input: GrantInput): Grant {
  const { argv, env, cwd, root } = input;
  const paths = resolvePaths(env, cwd);
  const userHome = env.HOME ?? "/";
  const places: Places = { cwd, home: paths.home, userHome };
  const n = baseNeeds(paths, cwd, root, env, userHome);
  let full = flagValue(argv, "--floor") === "full" ||
    (flagValue(argv, "--floor") === undefined && env.HARNESS_FLOOR === "full");
  const { stored, settingsProvider } = sourceNeeds(n, cwd, paths.home);
  providerNeeds(n, argv, env, stored, settingsProvider);
  runtimePluginNeeds(n, paths.home, env, places);
  projectMcpNeeds(n, paths.home, env, places);
  const floor = floorNeeds(n, argv, paths.home, env, places);
  if (floor.full) full = true;
  commandLineNeeds(n, argv, cwd, paths.home, env);
  // what may be written may be read (bubblewrap binds only what the process can stat)
  for (const w of n.write) n.read.add(w);
  helperNeeds(n, env);
  return {
    read: full || floor.readAll ? "all" : [...n.read],
    write: full || floor.writeAll ? "all" : [...n.write],
    net: full ? "all" : [...n.hosts],
    run: full ? "all" : [...n.run],
    notes: full ? ["the floor is full: no narrowing"] : n.notes,
  };
}

/**
 * What every run needs: the code, `$HARNESS_HOME`, the workspace, the sessions, the log,
 * Deno's cache, PATH, TLS and DNS files, and every `.harness` / `.agents` / `AGENTS.md` /
 * `.claude` / `CLAUDE.md` on the walk and the user's own.
 */
function baseNeeds(
  paths: ReturnType<typeof resolvePaths>,
  cwd: string,
  root: string,
  env: Record<string, string | undefined>,
  userHome: string,
): Needs {
  // the log file itself (its directory only when it must still be created)
  const logPlace = statOrUndefined(dirname(paths.log))?.isDirectory
    ? paths.log
    : dirname(paths.log);
  const read = new Set<string>([root, paths.home, cwd, paths.sessions, logPlace]);
  const write = new Set<string>([paths.home, cwd, paths.sessions, logPlace]);
  read.add(env.DENO_DIR ?? join(userHome, ".cache", "deno"));
  for (const d of (env.PATH ?? "").split(":")) if (d.startsWith("/")) read.add(d);
  for (const f of ["/etc/ssl", "/etc/ca-certificates", "/etc/resolv.conf", "/etc/hosts"]) {
    read.add(f);
  }
  // Every .harness / .agents / AGENTS.md on the walk, and the user's own.
  for (let d = cwd;; d = dirname(d)) {
    for (const n of [".harness", ".agents", "AGENTS.md", ".claude", "CLAUDE.md"]) {
      read.add(join(d, n));
    }
    if (dirname(d) === d) break;
  }
  read.add(join(userHome, ".agents"));
  read.add(join(userHome, ".harness"));
  read.add(join(userHome, ".claude"));
  return { read, write, hosts: new Set(), run: new Set(), notes: [] };
}

/**
 * Providers and commands of every source (packs included), trusted or not; returns the
 * providers with a stored credential and the provider `settings.conf` selects.
 */
function sourceNeeds(
  n: Needs,
  cwd: string,
  home: string,
): { stored: Set<string>; settingsProvider: string } {
  const stored = new Set(storedNames(join(home, ".auth.json")));
  let settingsProvider = "";
  for (const { dir } of walkHarnessDirs(cwd, home)) {
    for (const name of storedNames(join(dir, ".auth.json"))) stored.add(name);
    const settings = parseKeyValues(readTextOrUndefined(join(dir, "settings.conf")) ?? "");
    if (settings.provider) settingsProvider = settings.provider;
    const packs = dirEntries(join(dir, "plugins"));
    const sources = [dir, ...[...(packs?.dirs ?? [])].map((p) => join(dir, "plugins", p))];
    for (const src of sources) {
      const pdir = join(src, "providers");
      for (const name of dirEntries(pdir)?.names ?? []) {
        const path = join(pdir, name);
        if (name.endsWith(".conf")) {
          const url = parseKeyValues(readTextOrUndefined(path) ?? "").url;
          const host = url ? hostOf(url) : undefined;
          if (host && !n.hosts.has(host)) {
            n.hosts.add(host);
            n.notes.push(`${host}: ${path}`);
          }
        } else {
          const info = statOrUndefined(path);
          if (info && isExecutableInfo(info)) n.run.add(path);
        }
      }
      const cdir = join(src, "commands");
      for (const name of dirEntries(cdir)?.names ?? []) {
        const info = statOrUndefined(join(cdir, name));
        if (info && isExecutableInfo(info)) n.run.add(join(cdir, name));
      }
    }
  }
  return { stored, settingsProvider };
}

/** Built-in and bundled providers: only when ready (a key) or selected by name. */
function providerNeeds(
  n: Needs,
  argv: string[],
  env: Record<string, string | undefined>,
  stored: Set<string>,
  settingsProvider: string,
): void {
  const selected = new Set(
    [flagValue(argv, "-p", "--provider"), env.HARNESS_PROVIDER, settingsProvider].filter(
      (x): x is string => !!x,
    ),
  );
  for (const [name, b] of Object.entries(BUILTIN)) {
    const local = name === "openai" && !!env[b.urlVar];
    if (!(env[b.keyVar] || stored.has(name) || selected.has(name) || local)) continue;
    const host = hostOf(env[b.urlVar] || b.url);
    if (host) {
      n.hosts.add(host);
      n.notes.push(`${host}: built-in provider ${name}`);
    }
  }
  for (const [name, text] of Object.entries(bundledConfs)) {
    const conf = parseKeyValues(text);
    const ready = conf.auth_env ? !!env[conf.auth_env] : false;
    if (!(ready || stored.has(name) || selected.has(name))) continue;
    const host = conf.url ? hostOf(conf.url) : undefined;
    if (host) {
      n.hosts.add(host);
      n.notes.push(`${host}: bundled provider ${name}`);
    }
  }
}

/** Runtime plugins of plugins.json: their module's directory, and what they declare. */
function runtimePluginNeeds(
  n: Needs,
  home: string,
  env: Record<string, string | undefined>,
  places: Places,
): void {
  const plugins = (readJson(join(home, "plugins.json")) as { runtimePlugins?: unknown })
    ?.runtimePlugins;
  for (const e of Array.isArray(plugins) ? plugins : []) {
    const entry = e as { module?: unknown; enabled?: unknown; permissions?: unknown };
    if (entry?.enabled === false) continue;
    if (typeof entry?.module === "string") {
      // an absolute path or a package installed under $HARNESS_HOME (its whole package)
      const mod = resolvePluginModule(entry.module, home);
      if ("root" in mod) n.read.add(mod.root);
    }
    const p = (entry?.permissions ?? {}) as Record<string, unknown>;
    for (const x of strings(p.read)) n.read.add(expand(x, places));
    for (const x of strings(p.write)) n.write.add(expand(x, places));
    for (const x of strings(p.net)) {
      n.hosts.add(x);
      n.notes.push(`${x}: plugins.json permissions of ${String((e as { id?: unknown }).id)}`);
    }
    for (const x of strings(p.run)) n.run.add(x.startsWith("/") ? x : which(x, env.PATH) ?? x);
    builtinPluginNeeds(e, n, env, places);
  }
}

/**
 * The workspace's `.mcp.json`: the `mcp` plugin starts its servers once the workspace is
 * trusted and each server approved (granted like every source, trusted or not: the harness
 * decides), unless plugins.json disables the plugin.
 */
function projectMcpNeeds(
  n: Needs,
  home: string,
  env: Record<string, string | undefined>,
  places: Places,
): void {
  const file = join(places.cwd, ".mcp.json");
  if (!statOrUndefined(file)?.isFile) return;
  const plugins = (readJson(join(home, "plugins.json")) as { runtimePlugins?: unknown })
    ?.runtimePlugins;
  const mcp = (Array.isArray(plugins) ? plugins : []).find((e) => e?.id === "mcp");
  if (mcp?.enabled === false) return;
  builtinPluginNeeds({ id: "mcp", config: { files: [file] } }, n, env, places);
}

/**
 * The user's floor.json (project ones only narrow) and the floor flags. A policy is clamped
 * to what the process holds: what the floor may grant tools, the process must hold
 * (`--allow-net all` needs no process grant: children get their own).
 */
function floorNeeds(
  n: Needs,
  argv: string[],
  home: string,
  env: Record<string, string | undefined>,
  places: Places,
): { full: boolean; readAll: boolean; writeAll: boolean } {
  const floor = readJson(join(home, "floor.json")) as
    | { preset?: unknown; allow?: Record<string, unknown> }
    | undefined;
  const allowed = (effect: string) => [
    ...strings(floor?.allow?.[effect]),
    ...flagValues(argv, `--allow-${effect}`),
  ];
  const readAll = allowed("read").includes("all");
  const writeAll = allowed("write").includes("all");
  for (const x of allowed("read")) if (x !== "all") n.read.add(expand(x, places));
  for (const x of allowed("write")) if (x !== "all") n.write.add(expand(x, places));
  for (const x of allowed("net")) if (x !== "all") n.hosts.add(x);
  for (const x of allowed("run")) if (x !== "all") n.run.add(which(x, env.PATH) ?? x);
  return { full: floor?.preset === "full", readAll, writeAll };
}

/**
 * What the command line names: the paths of `hs scheme FILE`, `hs trust PATH`,
 * `hs session show DIR` and `hs session import FILE`, the folder `hs session export -o` writes; the project `.harness/` `hs auth set --local` writes; the
 * address `hs web` listens on (and the opener of `--open`).
 */
function commandLineNeeds(
  n: Needs,
  argv: string[],
  cwd: string,
  home: string,
  env: Record<string, string | undefined>,
): void {
  const { word, rest } = scanArgs(argv);
  if (word === "scheme" || word === "trust" || word === "session") {
    for (const a of rest) {
      if (a.startsWith("-")) continue;
      const p = resolve(cwd, a);
      if (statOrUndefined(p)) n.read.add(p);
    }
  }
  // `hs session export ID -o FILE` writes FILE's directory (temp file + rename)
  const output = word === "session" && rest[0] === "export"
    ? flagValue(rest, "-o", "--output")
    : undefined;
  if (output && output !== "-") n.write.add(dirname(resolve(cwd, output)));
  // `hs packs test` runs in a throwaway directory of the system's temporary directory
  // (core/pack_test.ts) and reads the script, expectations, session or fixture it names
  if (word === "packs" && rest.find((a) => !a.startsWith("-")) === "test") {
    const tmp = env.TMPDIR || "/tmp";
    n.read.add(tmp);
    n.write.add(tmp);
    for (const a of rest) {
      const p = a.startsWith("-") ? undefined : resolve(cwd, a);
      if (p && statOrUndefined(p)) n.read.add(p);
    }
  }
  // `hs auth set --local` writes the nearest project .harness/ (temp file + rename)
  if (word === "auth") {
    const project = walkHarnessDirs(cwd, home).filter((d) => d.kind === "project").at(-1);
    if (project) n.write.add(project.dir);
  }
  // `hs init --url URL` sends its check request there (the .conf it writes is not read yet)
  const initHost = word === "init" ? hostOf(flagValue(rest, "--url") ?? "") : undefined;
  if (initHost) {
    n.hosts.add(initHost);
    n.notes.push(`${initHost}: hs init --url`);
  }
  // `hs web` listens: on loopback, or on the address --host names (any port when --port is 0)
  if (word === "web") {
    const host = flagValue(rest, "--host") ?? "127.0.0.1";
    const port = flagValue(rest, "--port");
    const name = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
    // a port that is not a number is hs's usage error to report, not Deno's
    const numeric = port !== undefined && /^[1-9]\d{0,4}$/.test(port) && Number(port) <= 65535;
    const listen = numeric ? `${name}:${port}` : name;
    n.hosts.add(listen);
    n.notes.push(`${listen}: hs web listens`);
    if (hasFlag(rest, "--open")) {
      const open = which(Deno.build.os === "darwin" ? "open" : "xdg-open", env.PATH);
      if (open) n.run.add(open);
    }
  }
}

/**
 * The helpers hs runs itself come from the fixed system directories, never from PATH
 * (a workspace folder on PATH could hold the agent's `bwrap`); `HARNESS_BWRAP` is the
 * user's explicit override. bash runs the bash tool without an OS sandbox and feeds the
 * TIOCSTI filter to bubblewrap for interactive hooks.
 */
function helperNeeds(n: Needs, env: Record<string, string | undefined>): void {
  for (const x of ["bwrap", "setsid", "kill", "bash"]) {
    const p = systemBinary(x);
    if (p) n.run.add(p);
  }
  for (const d of SYSTEM_BIN_DIRS) n.read.add(d);
  const bwrap = bwrapBinary(env).bin;
  if (bwrap) n.run.add(bwrap);
}

/** The `deno run` permission flags of a grant (never `-A`). */
export function grantFlags(g: Grant): string[] {
  const list = (name: string, items: string[] | "all") =>
    items === "all"
      ? [`--allow-${name}`]
      : items.length
      ? [`--allow-${name}=${items.join(",")}`]
      : [];
  return [
    "--unstable-worker-options",
    "--no-prompt",
    ...list("read", g.read),
    ...list("write", g.write),
    "--allow-env",
    "--allow-sys=osRelease,hostname,homedir,uid,gid",
    ...list("run", g.run),
    ...list("net", g.net),
  ];
}
