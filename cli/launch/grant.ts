/**
 * Permission-scoped launcher (`deno task hs …`): computes the Deno permissions
 * this run needs — read the harness home, the workspace, the harness sources
 * and the Deno cache; write the home, the workspace, the sessions and the
 * log; net only to the resolved provider's host; run only bubblewrap, setsid
 * and executable providers — then re-executes `main.ts` with exactly those
 * flags. The harness process never holds `-A`; a run against a local server
 * holds no public network permission.
 *
 * The launcher itself runs without network (see the `launcher` permission set
 * in deno.json).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { resolvePaths } from "../../core/base/paths.ts";
import { readTextOrUndefined } from "../../core/base/fsutil.ts";
import { parseKeyValues } from "../../core/session/session.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** Well-known hosts of the built-in providers (overridden by their *_API_URL variables). */
const BUILTIN_HOSTS: Record<string, { env: string; url: string }> = {
  anthropic: { env: "ANTHROPIC_API_URL", url: "https://api.anthropic.com" },
  openai: { env: "OPENAI_API_URL", url: "https://api.openai.com" },
};

/** `host:port` of a URL (default ports made explicit). */
export function hostOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    return `${u.hostname}:${port}`;
  } catch {
    return undefined;
  }
}

function flagValue(args: string[], ...names: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    for (const n of names) {
      if (args[i] === n) return args[i + 1];
      if (args[i].startsWith(n + "=")) return args[i].slice(n.length + 1);
    }
  }
  return undefined;
}

/** Hosts of the provider this run resolves to, and executable providers to allow. */
export async function providerAccess(
  args: string[],
): Promise<{ hosts: string[] | "all"; executables: string[]; note: string }> {
  const { Harness } = await import("../../mod.ts");
  const h = await Harness.create({
    log: () => {},
    audit: false,
    trustWorkspace: args.includes("--trust-workspace"),
  });
  try {
    const executables = [...h.snapshot().providers.values()].filter((p) => p.kind !== "conf")
      .map((p) => p.path);
    let resolved: { provider: string };
    try {
      resolved = await h.resolve(flagValue(args, "-p", "--provider") ?? "", "");
    } catch {
      return { hosts: [], executables, note: "no provider resolved: no network" };
    }
    const info = (await h.providers()).find((p) => p.name === resolved.provider);
    if (info && info.origin.endsWith(".conf")) {
      const url = parseKeyValues(readTextOrUndefined(info.origin) ?? "").url;
      const host = url ? hostOf(url) : undefined;
      if (host) return { hosts: [host], executables, note: `${resolved.provider}: ${host}` };
    }
    const b = BUILTIN_HOSTS[resolved.provider];
    if (b) {
      const host = hostOf(Deno.env.get(b.env) || b.url)!;
      return { hosts: [host], executables, note: `${resolved.provider}: ${host}` };
    }
    if (info && info.origin.startsWith("/")) {
      return {
        hosts: [],
        executables,
        note: `${resolved.provider}: executable provider (own process)`,
      };
    }
    return {
      hosts: "all",
      executables,
      note: `${resolved.provider}: host unknown, net not narrowed`,
    };
  } finally {
    await h.close();
  }
}

/** The user's directory: `deno task` runs in the config's directory and sets INIT_CWD. */
export function workspaceDir(): string {
  return Deno.env.get("INIT_CWD") || Deno.cwd();
}

function which(name: string): string | undefined {
  for (const d of (Deno.env.get("PATH") ?? "").split(":").concat(["/usr/bin", "/bin"])) {
    try {
      if (Deno.statSync(join(d, name)).isFile) return join(d, name);
    } catch { /* next */ }
  }
  return undefined;
}

/** The `deno run` flags for a run of `main.ts` with these arguments. */
export async function launchFlags(args: string[]): Promise<{ flags: string[]; note: string }> {
  const env = Deno.env.toObject();
  const cwd = workspaceDir();
  const paths = resolvePaths(env, cwd);
  const denoDir = env.DENO_DIR ?? join(env.HOME ?? "/root", ".cache", "deno");
  const access = await providerAccess(args);
  const full = flagValue(args, "--floor") === "full";
  // every .harness on the walk from / to the workspace, PATH (to find bash, bwrap), TLS/DNS files
  const walk: string[] = [];
  for (let d = cwd;; d = dirname(d)) {
    walk.push(join(d, ".harness"), join(d, ".agents"), join(d, "AGENTS.md"));
    if (dirname(d) === d) break;
  }
  const pathDirs = (env.PATH ?? "").split(":").filter((d) => d.startsWith("/"));
  const etc = ["/etc/ssl", "/etc/ca-certificates", "/etc/resolv.conf", "/etc/hosts"];
  const read = [
    ROOT,
    paths.home,
    cwd,
    paths.sessions,
    dirname(paths.log),
    denoDir,
    ...walk,
    ...pathDirs,
    ...etc,
  ];
  const write = [paths.home, cwd, paths.sessions, dirname(paths.log)];
  const run = full ? [] : ["bwrap", "setsid", ...access.executables]
    .map((x) => x.startsWith("/") ? x : which(x) ?? x);
  const flags = [
    "--unstable-worker-options",
    "--no-prompt",
    `--allow-read=${[...new Set(read)].join(",")}`,
    `--allow-write=${[...new Set(write)].join(",")}`,
    "--allow-env",
    "--allow-sys=osRelease,hostname,homedir,uid,gid",
    full ? "--allow-run" : `--allow-run=${[...new Set(run)].join(",")}`,
  ];
  if (access.hosts === "all") flags.push("--allow-net");
  else if (access.hosts.length) flags.push(`--allow-net=${access.hosts.join(",")}`);
  return { flags, note: access.note };
}

if (import.meta.main) {
  const args = Deno.args;
  Deno.chdir(workspaceDir());
  const { flags, note } = await launchFlags(args);
  if (Deno.env.get("HS_LAUNCH_DEBUG")) console.error(`hs launch: ${note}\n  ${flags.join("\n  ")}`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, join(ROOT, "main.ts"), ...args],
    cwd: workspaceDir(),
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => {
      try {
        child.kill(sig);
      } catch { /* gone */ }
    });
  }
  Deno.exit((await child.status).code);
}
