/**
 * The fast path of `hs scheme`: recognised by `main.ts` and the launcher (`launch.ts`) before
 * the rest of the CLI loads (commander, zod, every command, the grant computation), so running a
 * Scheme program costs little more than loading the interpreter. It is taken only when nothing
 * replaces the built-in command (an executable `commands/scheme` in a `.harness/` of the walk
 * may, see cli/external/commands.ts); otherwise the callers go the ordinary way.
 *
 * Through the launcher the program runs in the launcher's own process (one Deno process, not
 * two), which first reads the program file and loads the interpreter, then gives up every
 * permission it holds (`Deno.permissions.revoke`): the program runs with none at all.
 *
 * This module imports nothing before the interpreter is wanted: no `node:` module (loading
 * Deno's Node layer costs ~15 ms), not core/base or core/discovery (they pull it in). Its path
 * handling is the POSIX subset of `node:path` the check needs.
 *
 * @module
 */

/** `hs scheme` flags that take the next word as their value (see scheme/cli.ts). */
const VALUE_FLAGS = new Set([
  "--fuel",
  "--timeout",
  "--max-depth",
  "--max-memory",
  "--max-string",
  "--max-vector",
  "--env",
]);

/** `node:path`'s POSIX `normalize` (lexical: `.`, `..` and repeated slashes). */
function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(part);
  }
  const s = out.join("/");
  return absolute ? "/" + s : s || ".";
}

/** `node:path`'s POSIX `join`. */
function join(...parts: string[]): string {
  return normalize(parts.filter((p) => p !== "").join("/"));
}

/** `dir` and every directory above it, as `node:path`'s `dirname` walks them. */
function upwards(dir: string): string[] {
  const out: string[] = [];
  for (let cur = normalize(dir);;) {
    out.push(cur);
    const i = cur.lastIndexOf("/");
    const parent = i < 0 ? "." : i === 0 ? "/" : cur.slice(0, i);
    if (parent === cur) return out;
    cur = parent;
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when the fast path may run `hs scheme`: the command line starts with the word `scheme`
 * and no file named `scheme` in a `.harness/commands/` of the walk (every `.harness` from `cwd`
 * up to `/`, and `$HARNESS_HOME`, default `~/.harness`: core/discovery's walkHarnessDirs)
 * may replace the built-in. Any such file sends the run the ordinary way, which decides.
 */
export function schemeFastPathApplies(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): boolean {
  if (argv[0] !== "scheme") return false;
  const home = env.HARNESS_HOME || join(env.HOME ?? "/", ".harness"); // core/base resolvePaths
  if (exists(join(home, "commands", "scheme"))) return false;
  return !upwards(cwd).some((d) => exists(join(d, ".harness", "commands", "scheme")));
}

/** The program file `hs scheme ARGS` runs (absolute), if it names one. */
export function schemeFile(args: string[], cwd: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-") && a !== "-") continue;
    return a.startsWith("/") ? normalize(a) : join(cwd, a);
  }
  return undefined;
}

const enc = new TextEncoder();
function writeAll(w: { writeSync(p: Uint8Array): number }, s: string): void {
  const b = enc.encode(s);
  for (let o = 0; o < b.length;) o += w.writeSync(b.subarray(o));
}

/** This process's streams for `hs scheme` (standard input is built only if the program reads it). */
function processIO(): {
  readonly stdin: ReadableStream<Uint8Array>;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTerminal: boolean;
} {
  return {
    get stdin() {
      return Deno.stdin.readable;
    },
    stdout: (s) => writeAll(Deno.stdout, s),
    stderr: (s) => writeAll(Deno.stderr, s),
    isTerminal: Deno.stdin.isTerminal(),
  };
}

/** Runs `hs scheme ARGS` in this process (the interpreter loads now); resolves to the exit code. */
export async function runScheme(args: string[]): Promise<number> {
  const { runSchemeCli } = await import("./run.ts");
  return await runSchemeCli(args, processIO());
}

/** Every permission a Deno process can hold; the confined run gives them all up. */
const PERMISSIONS = ["read", "write", "net", "env", "run", "ffi", "sys", "import"] as const;

/**
 * The launcher's fast path: runs `hs scheme ARGS` in the launcher's own process (no second Deno
 * process, no grant computation). It reads the program file (resolved against `cwd`), loads the
 * interpreter, then revokes every permission of the process before the program runs: the
 * Scheme program runs in a process that may read, write, reach or run nothing. Resolves to the
 * exit code.
 */
export async function runSchemeConfined(args: string[], cwd: string): Promise<number> {
  const file = schemeFile(args, cwd);
  // read now, handed over when the CLI asks for it (a failure is reported there, in hs's words)
  let text = "", failure: unknown = new Deno.errors.NotFound();
  if (file !== undefined) {
    try {
      text = await Deno.readTextFile(file);
      failure = undefined;
    } catch (e) {
      failure = e;
    }
  }
  const { runSchemeCli } = await import("./run.ts");
  for (const name of PERMISSIONS) {
    let state: Deno.PermissionState;
    try {
      state = (await Deno.permissions.revoke({ name } as Deno.PermissionDescriptor)).state;
    } catch {
      continue; // not a permission this Deno knows
    }
    if (state === "granted") {
      // never run the program with a permission it was meant not to have
      writeAll(Deno.stderr, `hs scheme: could not give up the ${name} permission\n`);
      return 1;
    }
  }
  // a getter is not copied by a spread: define readFile on the IO object itself
  const io = Object.assign(processIO(), {
    readFile: () => failure === undefined ? Promise.resolve(text) : Promise.reject(failure),
  });
  return await runSchemeCli(args, io);
}
