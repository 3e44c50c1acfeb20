/**
 * The pieces of issue 24 point 11 one by one: the text of `bin/harness` (run and sourced),
 * its directory (written once, read-only, written again when altered), the scope flags a
 * command hands it, and the presence markers of a child environment.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ensureHarnessRoot, shimText } from "../../core/harness_root.ts";
import { buildChildEnv } from "../../core/child_env.ts";
import { PRESENCE_MARKER } from "../../core/base/mod.ts";
import { scopeFlags, shellWords } from "../../cli/external/mod.ts";

async function bash(script: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command("bash", {
    args: [script, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    clearEnv: true,
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("bin/harness, run: the entry, then HS_SCOPE's flags, then the arguments", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const shim = join(dir, "harness");
    Deno.writeTextFileSync(shim, shimText(["/bin/echo", "entry with space"]));
    const scope = shellWords(["--deny-read", "/tmp/it's here", "--trust-workspace"]);
    const r = await bash(shim, ["agent", "hi"], { HS_SCOPE: scope });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "entry with space --deny-read /tmp/it's here --trust-workspace agent hi\n",
    );
    const bare = await bash(shim, ["tools"]);
    assert.equal(bare.stdout, "entry with space tools\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bin/harness, sourced: a reference command's name runs that built-in; others get helpers", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const shim = join(dir, "harness");
    const entry = join(dir, "entry");
    Deno.writeTextFileSync(entry, `#!/bin/sh\necho "builtin=$HS_RUN_BUILTIN args=$*"\n`, {
      mode: 0o755,
    });
    Deno.writeTextFileSync(shim, shimText([entry]));
    const body = `set -euo pipefail\nsource ${JSON.stringify(shim)}\n` +
      `_refresh_sources\nprintf 'src %s\\n' "\${_HARNESS_SOURCES[@]}"\necho "cmd $(_find_command mine)"\n`;
    for (const name of ["session", "mine"]) {
      Deno.mkdirSync(join(dir, "a", "commands"), { recursive: true });
      Deno.writeTextFileSync(join(dir, "a", "commands", name), `#!/bin/sh\n`, { mode: 0o755 });
      Deno.writeTextFileSync(join(dir, name), body);
    }
    const env = { HARNESS_SOURCES: `/nowhere:${join(dir, "a")}` };
    const ref = await bash(join(dir, "session"), ["list"], env);
    assert.equal(ref.code, 0, ref.stderr);
    assert.equal(ref.stdout, "builtin=session args=session list\n", "hs runs its built-in");
    const own = await bash(join(dir, "mine"), [], env);
    assert.equal(own.code, 0, own.stderr);
    assert.equal(
      own.stdout,
      `src /nowhere\nsrc ${join(dir, "a")}\ncmd ${join(dir, "a/commands/mine")}\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the HARNESS_ROOT directory: written once, 0555, written again when altered", async () => {
  const home = await Deno.makeTempDir();
  try {
    const lines: string[] = [];
    const entry = () => ["/bin/true"];
    const root = ensureHarnessRoot(home, entry, (l) => lines.push(l))!;
    assert.ok(root.startsWith(join(home, ".cache", "root-")), root);
    const shim = join(root, "bin", "harness");
    assert.equal(Deno.statSync(shim).mode! & 0o777, 0o555);
    assert.equal(ensureHarnessRoot(home, entry, (l) => lines.push(l)), root, "the same directory");
    Deno.chmodSync(shim, 0o755);
    Deno.writeTextFileSync(shim, "#!/bin/sh\necho altered\n");
    assert.equal(ensureHarnessRoot(home, entry, (l) => lines.push(l)), root);
    assert.equal(Deno.readTextFileSync(shim), shimText(["/bin/true"]));
    assert.notEqual(ensureHarnessRoot(home, () => ["/bin/false"], () => {}), root, "per entry");
    assert.equal(ensureHarnessRoot(home, () => ["a\nb"], (l) => lines.push(l)), undefined);
    assert.deepEqual(lines, ["[root] no bin/harness: an entry word with a line break"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("scopeFlags keeps what scopes a run, in order, and nothing else", () => {
  assert.deepEqual(
    scopeFlags([
      "--json",
      "-p",
      "--floor",
      "--deny-read",
      "/x",
      "--allow-net=h:1",
      "--trust-workspace",
      "-m",
      "m1",
      "--bot",
      "pack/bot",
      "--floor=read",
    ]),
    [
      "--deny-read",
      "/x",
      "--allow-net=h:1",
      "--trust-workspace",
      "--bot",
      "pack/bot",
      "--floor=read",
    ],
  );
});

Deno.test("a provider key that is set: the marker for hooks and commands, nothing for tools", () => {
  const secrets = { names: ["K_ONE", "K_TWO"], values: ["secret-value-1234"], present: ["K_ONE"] };
  const base = { K_ONE: "secret-value-1234", K_TWO: undefined, PATH: "/bin" };
  const hook = buildChildEnv(base, secrets, {}, { HARNESS_STAGE: "resolve" });
  assert.equal(hook.K_ONE, PRESENCE_MARKER);
  assert.equal(hook.K_TWO, undefined);
  assert.ok(!JSON.stringify(hook).includes("secret-value-1234"));
  const tool = buildChildEnv(base, secrets, {}, { HARNESS_STAGE: "tool_exec" }, false);
  assert.equal(tool.K_ONE, undefined);
});
