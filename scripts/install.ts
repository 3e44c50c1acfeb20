/**
 * `deno task install` / `deno task uninstall`: put `hs` on PATH from a clone.
 *
 * Install writes one small shell script, `<bin>/hs` (bin: `--bin DIR`, else
 * `$HS_BIN_DIR`, else `~/.local/bin`), that runs this checkout's launcher the
 * way `deno task hs` does — the command is read from deno.json's `tasks.hs`, so
 * the permissions are the launcher's own — with this checkout's `deno.json` and
 * lock and `--cached-only`, from whatever directory it is started in. Install
 * first warms Deno's cache (every npm dependency of the lock, every module of
 * the launcher and the harness), so an installed `hs` fetches nothing.
 *
 * The script's last comment line carries the checkout and the SHA-256 of
 * everything above it: uninstall removes `<bin>/hs` only when that line is
 * there, names this checkout and still matches the text — a file install did
 * not write (or that was edited since) is refused, never removed.
 *
 * Usage: deno task install [--bin DIR] | deno task uninstall [--bin DIR]
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const MARK = "# hs-install:";

/** An install step that cannot go on: the message and how to fix it. */
export class InstallError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** Single-quotes a word for sh. */
function sh(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The `deno` arguments of `tasks.hs`, made to run from anywhere: `--config` and
 * `--cached-only` after `run`, the entry module as an absolute path.
 */
export function launcherArgs(task: string, root: string): string[] {
  const words = task.trim().split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run") {
    throw new InstallError(
      `deno.json's tasks.hs is not a \`deno run\` command: ${task}`,
      "restore tasks.hs (the launcher: deno run -q -P=launcher launch.ts)",
    );
  }
  const rest = words.slice(2);
  const entry = rest.findIndex((w) => !w.startsWith("-"));
  if (entry < 0) throw new InstallError(`deno.json's tasks.hs names no module: ${task}`);
  const flags = rest.slice(0, entry);
  const module = isAbsolute(rest[entry]) ? rest[entry] : join(root, rest[entry]);
  return [
    "run",
    "--config",
    join(root, "deno.json"),
    "--cached-only",
    ...flags,
    module,
    ...rest.slice(entry + 1),
  ];
}

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The text of `<bin>/hs` for a checkout, `deno` executable and `tasks.hs`. */
export async function launcherScript(root: string, deno: string, task: string): Promise<string> {
  for (const p of [root, deno]) {
    // the paths are written in comments too: a line break would end one
    if ([...p].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
      throw new InstallError(
        `a control character in ${JSON.stringify(p)}`,
        "install from a path without one",
      );
    }
  }
  const args = launcherArgs(task, root).map(sh).join(" ");
  const body = [
    "#!/bin/sh",
    `# hs, written by \`deno task install\` from ${root}.`,
    "# It runs that checkout's launcher (deno.json tasks.hs) with its deno.json and lock, fetching",
    "# nothing; `deno task uninstall` there removes this file. Edited, it is no longer removed.",
    "unset INIT_CWD",
    `exec ${sh(deno)} ${args} "$@"`,
    "",
  ].join("\n");
  return `${body}${MARK} ${root} sha256=${await sha256(body)}\n`;
}

/** Who wrote a file: this checkout's install, another checkout's, or nobody we know. */
export async function writtenBy(text: string): Promise<string | undefined> {
  const at = text.lastIndexOf(`\n${MARK} `);
  if (at < 0 || !text.endsWith("\n")) return undefined;
  const body = text.slice(0, at + 1);
  const m = /^(.+) sha256=([0-9a-f]{64})$/.exec(text.slice(at + 1 + MARK.length + 1, -1));
  if (!m || m[2] !== await sha256(body)) return undefined;
  return m[1];
}

/** The bin folder: `--bin DIR`, `$HS_BIN_DIR`, or `~/.local/bin` (relative to where it was run). */
export function binDir(args: string[], env: Record<string, string>, cwd: string): string {
  const i = args.findIndex((a) => a === "--bin" || a.startsWith("--bin="));
  const given = i < 0
    ? env.HS_BIN_DIR
    : args[i].startsWith("--bin=")
    ? args[i].slice(6)
    : args[i + 1];
  if (i >= 0 && !given) {
    throw new InstallError("--bin needs a folder", "deno task install --bin DIR");
  }
  if (given) return resolve(cwd, given);
  if (!env.HOME) throw new InstallError("HOME is not set", "name the folder: --bin DIR");
  return join(env.HOME, ".local", "bin");
}

/** The text of a regular file, undefined when nothing is there; "" for anything else there. */
async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.lstat(path);
    return info.isFile ? await Deno.readTextFile(path) : ""; // a link or a folder: not ours
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

async function run(cmd: string, args: string[]): Promise<void> {
  const st = await new Deno.Command(cmd, { args, cwd: ROOT, stdout: "null", stderr: "inherit" })
    .spawn().status;
  if (!st.success) {
    throw new InstallError(
      `\`deno ${args.join(" ")}\` failed (exit ${st.code})`,
      "the first install fetches the npm dependencies once: check the network, then run it again",
    );
  }
}

/** Fills Deno's cache with everything an installed `hs` loads. */
async function warmCache(deno: string): Promise<void> {
  const config = join(ROOT, "deno.json");
  await run(deno, ["install", "-q", "--frozen", "--config", config]);
  await run(deno, ["cache", "-q", "--frozen", "--config", config, "launch.ts", "main.ts"]);
}

/** The `deno` to run: the one on PATH when it is this one (a symlink survives upgrades). */
function denoExecutable(env: Record<string, string>): string {
  const self = Deno.execPath();
  for (const dir of (env.PATH ?? "").split(":").filter((d) => isAbsolute(d))) {
    try {
      if (Deno.realPathSync(join(dir, "deno")) === self) return join(dir, "deno");
    } catch { /* not here */ }
  }
  return self;
}

/** `deno task install`: writes `<bin>/hs`; resolves to the path written. */
export async function install(bin: string, opts: { warm?: boolean } = {}): Promise<string> {
  const deno = denoExecutable(Deno.env.toObject());
  const task = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")))?.tasks?.hs;
  if (typeof task !== "string") throw new InstallError("deno.json has no tasks.hs");
  const target = join(bin, "hs");
  const existing = await readOrUndefined(target);
  if (existing !== undefined && await writtenBy(existing) === undefined) {
    throw new InstallError(
      `${target} exists and was not written by \`deno task install\``,
      "move it away, or install elsewhere: deno task install --bin DIR",
    );
  }
  if (opts.warm !== false) await warmCache(deno);
  await Deno.mkdir(bin, { recursive: true });
  const tmp = `${target}.tmp-${crypto.randomUUID()}`;
  await Deno.writeTextFile(tmp, await launcherScript(ROOT, deno, task), { mode: 0o755 });
  await Deno.chmod(tmp, 0o755);
  await Deno.rename(tmp, target);
  return target;
}

/** `deno task uninstall`: removes `<bin>/hs` if this checkout's install wrote it. */
export async function uninstall(bin: string): Promise<string> {
  const target = join(bin, "hs");
  const text = await readOrUndefined(target);
  if (text === undefined) {
    throw new InstallError(
      `${target} does not exist`,
      "name the folder you installed to: --bin DIR",
    );
  }
  const by = await writtenBy(text);
  if (by === undefined) {
    throw new InstallError(
      `${target} was not written by \`deno task install\` (or was edited since): not removed`,
      "remove it yourself if it is yours to remove",
    );
  }
  if (by !== ROOT) {
    throw new InstallError(
      `${target} was installed from another checkout, ${by}: not removed`,
      `run \`deno task uninstall\` in ${by}`,
    );
  }
  await Deno.remove(target);
  return target;
}

async function main(args: string[]): Promise<number> {
  const [cmd, ...rest] = args;
  const env = Deno.env.toObject();
  try {
    const bin = binDir(rest, env, env.INIT_CWD || Deno.cwd());
    if (cmd === "install") {
      const path = await install(bin);
      console.log(`installed ${path} (runs ${ROOT})`);
      const onPath = (env.PATH ?? "").split(":").map((d) => resolve(d)).includes(bin);
      if (!onPath) {
        console.log(`hint: ${bin} is not on PATH: add it, e.g. export PATH="${bin}:$PATH"`);
      }
      return 0;
    }
    if (cmd === "uninstall") {
      console.log(`removed ${await uninstall(bin)}`);
      return 0;
    }
    console.error("usage: deno task install [--bin DIR] | deno task uninstall [--bin DIR]");
    return 2;
  } catch (e) {
    if (!(e instanceof InstallError)) throw e;
    console.error(`hs install: ${e.message}`);
    if (e.hint) console.error(`hint: ${e.hint}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
