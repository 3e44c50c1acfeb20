/**
 * Test support: temp workspaces with a private HARNESS_HOME, executable
 * fixtures, and the real CLI spawned as a child process.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { workspaceKey, workspaceRealPath } from "../../core/base/mod.ts";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import type {
  ScriptedServer,
  ScriptedServerOptions,
  ScriptedTurn,
} from "../../plugins/scripted/mod.ts";

/** The repository root. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/**
 * True when bubblewrap (or $HARNESS_BWRAP) can sandbox child processes here. Without it, kernel tests run
 * children unconfined (`HARNESS_UNSANDBOXED=1`); tests/floor covers the refusal path.
 */
export const BWRAP_OK: boolean = (() => {
  try {
    return new Deno.Command(Deno.env.get("HARNESS_BWRAP") ?? "bwrap", {
      args: ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--", "/bin/true"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
})();

/**
 * Environment for a spawned `hs` so kernel tests pass with and without bubblewrap:
 * `HARNESS_UNSANDBOXED=1` when it is missing, and `HARNESS_BWRAP` passed through
 * (`HARNESS_BWRAP=/nonexistent deno test …` simulates a machine without it).
 */
export function floorTestEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  if (!BWRAP_OK) env.HARNESS_UNSANDBOXED = "1";
  const bwrap = Deno.env.get("HARNESS_BWRAP");
  if (bwrap) env.HARNESS_BWRAP = bwrap;
  return env;
}

/** A temporary workspace: `root/home` is HARNESS_HOME, `root/ws` the project. */
export interface Workspace {
  root: string;
  home: string;
  ws: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Creates a workspace whose `.harness/` is trusted unless `trusted: false`. */
export async function makeWorkspace(opts: { trusted?: boolean } = {}): Promise<Workspace> {
  const root = await Deno.makeTempDir({ prefix: "hs-test-" });
  const home = join(root, "home");
  const ws = join(root, "ws");
  await Deno.mkdir(join(ws, ".harness"), { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  if (opts.trusted !== false) {
    await Deno.writeTextFile(
      join(home, "trust.json"),
      JSON.stringify({ version: 1, trusted: { [root]: { at: "test" } } }),
    );
  }
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: root,
    HARNESS_HOME: home,
    HARNESS_LOG: join(root, "harness.log"),
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    ...floorTestEnv(),
  };
  // The child deno must find the npm cache of this one (HOME is redirected).
  env.DENO_DIR = Deno.env.get("DENO_DIR") ??
    join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
  for (const k of ["XDG_CACHE_HOME", "NPM_CONFIG_REGISTRY", "npm_config_registry"]) {
    const v = Deno.env.get(k);
    if (v) env[k] = v;
  }
  return { root, home, ws, env, cleanup: () => Deno.remove(root, { recursive: true }) };
}

/** Writes a file (creating parents) with the given mode. */
export async function writeFile(path: string, text: string, mode = 0o644): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
  await Deno.chmod(path, mode);
}

/** Writes an executable script. */
export function writeExe(path: string, text: string): Promise<void> {
  return writeFile(path, text, 0o755);
}

/** A provider `.conf` pointing the anthropic adapter at a loopback server. */
export function loopbackConf(url: string, protocol = "anthropic", extra = ""): string {
  const path = protocol === "anthropic"
    ? "/v1/messages"
    : protocol === "openai"
    ? "/v1/chat/completions"
    : "/v1/responses";
  return `protocol=${protocol}\nurl=${url}${path}\nmodel=scripted-1\ndescription=loopback test server\n${extra}`;
}

/** Output of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The `deno` arguments that start the CLI the way the README tells a user to:
 * `deno task hs`, i.e. the permission-scoped launcher (run from the workspace, with
 * the repository's config). `$HS_E2E_CMD` (space-separated) replaces it, e.g. with the
 * bundle under the release's baked flags; {@link directHsArgs} is the exception.
 */
export function hsArgs(): string[] {
  const custom = Deno.env.get("HS_E2E_CMD");
  return custom
    ? custom.split(" ").filter(Boolean)
    : ["task", "-q", "--config", join(REPO, "deno.json"), "hs"];
}

/** `deno run -A main.ts`: the harness without the launcher (for the few tests about that path). */
export function directHsArgs(): string[] {
  return ["run", "-A", "--quiet", join(REPO, "main.ts")];
}

/** Spawns the real CLI through `deno task hs` (see {@link hsArgs}). */
export async function runHs(
  args: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    stdin?: string;
    signalAfterMs?: number;
    /** Run `deno run -A main.ts` instead of the launcher. */
    direct?: boolean;
  },
): Promise<CliRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...(opts.direct ? directHsArgs() : hsArgs()), ...args],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  if (opts.stdin !== undefined) await w.write(new TextEncoder().encode(opts.stdin));
  await w.close();
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (opts.signalAfterMs !== undefined) {
    timer = setTimeout(() => {
      try {
        child.kill("SIGINT");
      } catch { /* exited */ }
    }, opts.signalAfterMs);
  }
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.status,
  ]);
  clearTimeout(timer);
  return { code: status.code, stdout, stderr };
}

/** A workspace whose `.harness/` selects a `loop` provider on a scripted loopback server. */
export interface LoopbackWorkspace {
  w: Workspace;
  server: ScriptedServer;
  close(): Promise<void>;
}

/**
 * Starts a scripted server and a workspace with `providers/loop.conf` pointing
 * at it and `settings.conf` selecting it.
 */
export async function loopbackWorkspace(
  script: ScriptedTurn[],
  opts: {
    trusted?: boolean;
    protocol?: string;
    confExtra?: string;
    /** Options of the scripted server (e.g. `promptCache`). */
    server?: ScriptedServerOptions;
  } = {},
): Promise<LoopbackWorkspace> {
  const w = await makeWorkspace({ trusted: opts.trusted });
  const server = await startScriptedServer(script, opts.server);
  await writeFile(
    join(w.ws, ".harness/providers/loop.conf"),
    loopbackConf(server.url, opts.protocol ?? "anthropic", opts.confExtra ?? ""),
  );
  await writeFile(join(w.ws, ".harness/settings.conf"), "provider=loop\n");
  return {
    w,
    server,
    async close() {
      await server.close();
      await w.cleanup();
    },
  };
}

/**
 * A recorded Anthropic request body without its prompt-cache marks (for tests about what
 * a request says, not how it is cached): every `cache_control` removed, a system prompt of
 * text blocks joined back into a string, and a content list of one plain text block back
 * into a string (the shapes the adapter builds before it marks breakpoints).
 */
export function plainBody<T = Record<string, unknown>>(body: unknown): T {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (typeof v !== "object" || v === null) return v;
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (k !== "cache_control") o[k] = strip(x);
    return o;
  };
  const oneText = (c: unknown): unknown =>
    Array.isArray(c) && c.length === 1 && c[0]?.type === "text" && Object.keys(c[0]).length === 2
      ? c[0].text
      : c;
  const b = strip(body) as Record<string, unknown>;
  if (Array.isArray(b.system)) {
    b.system = (b.system as { text?: string }[]).map((x) => x.text ?? "").join("");
  }
  if (Array.isArray(b.messages)) {
    b.messages = (b.messages as Record<string, unknown>[]).map((m) =>
      typeof m === "object" && m !== null ? { ...m, content: oneText(m.content) } : m
    );
  }
  return b as T;
}

/**
 * The sessions directory hs uses by default for a workspace: its group in
 * `$HARNESS_HOME/sessions` (core/base/workspace_key.ts).
 */
export function sessionsOf(w: { home: string; ws: string }, cwd: string = w.ws): string {
  return join(w.home, "sessions", workspaceKey(workspaceRealPath(cwd)));
}
