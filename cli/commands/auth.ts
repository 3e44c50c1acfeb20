/**
 * `hs auth set <name> [--local]`, `hs auth list`, `hs auth rm <name> <index>
 * [--local]` (PROTOCOLS "Auth"). `set` takes the credential the `auth-set`
 * stage hooks print when there are any and one of them printed one; else the
 * key from stdin when it is piped, else from a prompt that does not echo. Keys are never printed: `list` masks them and
 * errors never echo file contents.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { join } from "../../core/early/mod.ts";
import type { AuthEntry, FrontEnd } from "../../core/mod.ts";

/** The credential store, loaded when a command uses it (it validates with zod). */
const store = () => import("../../core/providers/mod.ts");
import { displayPath, HarnessError, statOrUndefined } from "../../core/base/mod.ts";
import { walkHarnessDirs } from "../../core/discovery/mod.ts";
import type { CliContext } from "../base/mod.ts";
import type { CommandContext } from "../harness/mod.ts";
import { sanitizeForTerminal as safe } from "../view/mod.ts";

/** Provider names that can be stored (they become JSON keys and file-name-like ids). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw new HarnessError(
      `invalid provider name "${name}"`,
      "use the provider's name as listed by: hs providers",
    );
  }
}

/** The auth file `set`/`rm` write: `$HARNESS_HOME/.auth.json`, or the nearest project one. */
export function authTarget(h: FrontEnd, local: boolean): string {
  if (!local) return join(h.where.home, ".auth.json");
  const project = walkHarnessDirs(h.where.cwd, h.where.home).filter((d) => d.kind === "project")
    .at(-1);
  if (!project) {
    throw new HarnessError(
      `--local: no project .harness/ directory found from ${h.where.cwd} upwards`,
      "create one (mkdir .harness) or drop --local to use $HARNESS_HOME/.auth.json",
    );
  }
  return join(project.dir, ".auth.json");
}

/** Reads a secret from a terminal without echoing it. */
async function promptHidden(label: string, cli: CliContext): Promise<string> {
  cli.stderr(label);
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  const buf = new Uint8Array(256);
  try {
    for (;;) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      let done = false;
      for (const b of buf.subarray(0, n)) {
        if (b === 3) throw new HarnessError("cancelled", "", 130);
        if (b === 13 || b === 10 || b === 4) {
          done = true;
          break;
        }
        if (b === 127 || b === 8) bytes.pop();
        else if (b >= 32) bytes.push(b);
      }
      if (done) break;
    }
  } finally {
    Deno.stdin.setRaw(false);
    cli.stderr("\n");
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * Runs the `auth-set` stage (hooks printing a credential), if it has hooks — through the
 * harness's stage runner, so its executables run inside the effect floor's sandbox.
 */
async function fromAuthSetHooks(h: FrontEnd, name: string): Promise<AuthEntry | undefined> {
  // a person may be typing a key: the stage gets five hook timeouts
  const r = await h.admin.authSet(name);
  if (!r) return undefined;
  if (!r.ok) {
    const msg = typeof r.output.error === "string" ? r.output.error : "auth-set hook failed";
    throw new HarnessError(`auth-set: ${msg}`, "see HARNESS_LOG for the hook's stderr");
  }
  // Hooks that only pass their input through (a provider-specific login hook for another
  // provider) leave no credential: hs asks for the key itself, as the reference's default does.
  if (!("type" in r.output)) return undefined;
  const entry = (await store()).parseAuthEntry(r.output);
  if (!entry) {
    throw new HarnessError(
      `auth-set hooks printed no credential for "${name}"`,
      'the last hook must print {"type":"api_key","key":"…"} or an OAuth record',
    );
  }
  return entry;
}

/**
 * Keeps `$HARNESS_HOME/.auth-cache.json` (read by executable providers written for the
 * reference) in step with the auth files, when it exists; hs writes it first when it runs
 * such a provider.
 */
async function refreshCache(h: FrontEnd): Promise<void> {
  const { authCachePath, refreshAuthCache, sourceAuthFiles } = await store();
  if (!statOrUndefined(authCachePath(h.where.home))) return;
  refreshAuthCache(h.where.home, sourceAuthFiles(h.catalog.snapshot(), h.where.home));
}

/** `hs auth set <name> [--local]`. */
export async function authSet(
  h: FrontEnd,
  cli: CliContext,
  name: string,
  opts: { local?: boolean },
): Promise<number> {
  checkName(name);
  const path = authTarget(h, opts.local === true);
  const known = (await h.catalog.providers()).some((p) => p.name === name);
  let entry = await fromAuthSetHooks(h, name);
  if (!entry) {
    let key: string;
    if (cli.stdinIsTerminal) key = await promptHidden(`API key for ${name} (not echoed): `, cli);
    else key = await new Response(Deno.stdin.readable).text();
    key = key.trim();
    if (!key) {
      throw new HarnessError(
        "no key given",
        `pipe it (printf %s "$KEY" | hs auth set ${name}) or type it at the prompt`,
      );
    }
    if (/\s/.test(key)) {
      throw new HarnessError("the key contains whitespace", "pass exactly one key");
    }
    entry = { type: "api_key", key };
  }
  await (await store()).setEntry(path, name, entry);
  await refreshCache(h);
  cli.stdout(
    `stored ${entry.type === "api_key" ? "a key" : "an OAuth token"} for ${name} in ${
      displayPath(path, h.env)
    } (mode 0600)\n`,
  );
  if (!known) {
    cli.stderr(
      `hs: note: no provider "${name}" is known here yet; the key is used once providers/${name}.conf (or an executable) exists\n`,
    );
  }
  if (opts.local) {
    cli.stderr(`hs: note: keep ${displayPath(path, h.env)} out of version control\n`);
  }
  return 0;
}

/** `hs auth list`: masked credentials of every auth file that exists. */
export async function authList(h: FrontEnd, cli: CliContext): Promise<number> {
  const { authFiles, listAuth } = await store();
  let code = 0;
  let any = false;
  for (const path of [...authFiles(h.env, h.where.cwd)].reverse()) {
    if (!statOrUndefined(path)) continue;
    let rows;
    try {
      rows = await listAuth(path);
    } catch (err) {
      const e = err as HarnessError;
      cli.stderr(safe(`hs: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ""}`));
      code = 1;
      continue;
    }
    any = true;
    cli.stdout(`${displayPath(path, h.env)}\n`);
    if (rows.length === 0) cli.stdout("  (empty)\n");
    for (const r of rows) {
      const exp = r.expiresAt !== undefined ? `  expires ${r.expiresAt}` : "";
      cli.stdout(
        safe(`  ${`${r.provider} ${r.index}`.padEnd(24)} ${r.type.padEnd(8)} ${r.masked}${exp}\n`),
      );
    }
  }
  if (!any && code === 0) {
    cli.stdout("no stored credentials (add one with: hs auth set <provider>)\n");
  }
  return code;
}

/** `hs auth rm <name> <index> [--local]`. */
export async function authRm(
  h: FrontEnd,
  cli: CliContext,
  name: string,
  index: string,
  opts: { local?: boolean },
): Promise<number> {
  checkName(name);
  const path = authTarget(h, opts.local === true);
  if (!/^\d+$/.test(index)) {
    throw new HarnessError(`invalid index "${index}"`, "use the number shown by: hs auth list");
  }
  const { listAuth, removeKey } = await store();
  const rows = statOrUndefined(path) ? await listAuth(path) : [];
  const shown = displayPath(path, h.env);
  if (!rows.some((r) => r.provider === name)) {
    const stored = [...new Set(rows.map((r) => r.provider))];
    throw new HarnessError(
      `no credentials stored for "${name}" in ${shown}`,
      stored.length ? `stored there: ${stored.join(", ")}` : "see: hs auth list",
    );
  }
  const count = rows.filter((r) => r.provider === name).length;
  if (Number(index) >= count) {
    throw new HarnessError(
      `no credential ${name} ${index} in ${shown}: ${name} has ${count} (index ${
        count === 1 ? "0" : `0–${count - 1}`
      })`,
      "see: hs auth list",
    );
  }
  await removeKey(path, name, Number(index));
  await refreshCache(h);
  cli.stdout(`removed ${name} ${index} from ${shown}\n`);
  return 0;
}

/** Registers `hs auth` (set, list, rm). */
export function register(program: Command, ctx: CommandContext): void {
  const auth = program.command("auth").description(
    "store API keys for providers (0600 .auth.json; never printed)",
  );
  auth.command("set").description("store a key: piped on stdin, or typed at a hidden prompt")
    .argument("<name>", "provider name (see: hs providers)")
    .option("--local", "write the nearest project .harness/.auth.json instead of HARNESS_HOME")
    .action(async (name, o) => {
      await ctx.run({}, (h) => authSet(h, ctx.cli, name, o));
    });
  auth.command("list").description("list stored credentials (masked)")
    .action(async () => {
      await ctx.run({}, (h) => authList(h, ctx.cli));
    });
  auth.command("rm").description("remove one stored credential")
    .argument("<name>", "provider name")
    .argument("<index>", "index shown by: hs auth list")
    .option("--local", "remove from the nearest project .harness/.auth.json")
    .action(async (name, index, o) => {
      await ctx.run({}, (h) => authRm(h, ctx.cli, name, index, o));
    });
}
