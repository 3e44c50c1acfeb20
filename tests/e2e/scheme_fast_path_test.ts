/**
 * `hs scheme` through its fast path (scheme/cli/fast_path.ts): `main.ts` and the launcher recognise
 * the word before loading the CLI. Every case runs the real entry (`deno task hs`, and
 * `main.ts` where noted) and checks what a user sees; the grant is checked as flags.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { resolvePaths, statOrUndefined } from "../../core/base/mod.ts";
import { walkHarnessDirs } from "../../core/discovery/mod.ts";
import { hsArgs, makeWorkspace, runHs, writeExe } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import { schemeFastPathApplies, schemeFile } from "../../scheme/cli/fast_path.ts";

const MODULE = new URL("../../scheme/cli/fast_path.ts", import.meta.url).href;

/** What a user must never see: Deno's own permission wording or warnings. */
function assertNoDenoWording(text: string): void {
  assert.doesNotMatch(text, /run again with the --allow|Requires read access|Warning/, text);
  assert.doesNotMatch(text, /error: Uncaught| {4}at file:\/\//, text);
}

Deno.test("hs scheme FILE outside the workspace, with limit flags and program arguments", async () => {
  const w = await makeWorkspace();
  const outside = await Deno.makeTempDir({ prefix: "hs-scheme-fast-" });
  try {
    const file = join(outside, "x.scm");
    await Deno.writeTextFile(file, "(display (+ 40 2)) (display (cdr (command-line)))\n");
    const r = await runHs(["scheme", "--fuel", "100000", file, "a", "b"], {
      cwd: w.ws,
      env: w.env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "42(a b)");
    assertNoDenoWording(r.stderr);
    const direct = await runHs(["scheme", file], { cwd: w.ws, env: w.env, direct: true });
    assert.equal(direct.code, 0, direct.stderr);
    assert.equal(direct.stdout, "42()");
  } finally {
    await Deno.remove(outside, { recursive: true });
    await w.cleanup();
  }
});

Deno.test("hs scheme: --help, a bad flag, a missing file, a directory, an error in the program", async () => {
  const w = await makeWorkspace();
  try {
    const help = await runHs(["scheme", "--help"], { cwd: w.ws, env: w.env });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: hs scheme \[options\]/);
    const bad = await runHs(["scheme", "--bogus"], { cwd: w.ws, env: w.env });
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      "hs: unknown option --bogus\nhint: `hs scheme --help` lists the options and the limits\n",
    );
    const noValue = await runHs(["scheme", "--fuel"], { cwd: w.ws, env: w.env });
    assert.equal(noValue.code, 2);
    assert.match(noValue.stderr, /--fuel needs a value/);
    const missing = await runHs(["scheme", "nope.scm"], { cwd: w.ws, env: w.env });
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, "hs scheme: cannot read nope.scm: no such file\n");
    assertNoDenoWording(missing.stderr);
    const dir = await runHs(["scheme", w.ws], { cwd: w.ws, env: w.env });
    assert.equal(dir.code, 1);
    assert.match(dir.stderr, /^hs scheme: cannot read .*: /);
    assertNoDenoWording(dir.stderr);
    await Deno.writeTextFile(join(w.ws, "bad.scm"), "(display 1)\n(car 5)\n");
    const failing = await runHs(["scheme", "bad.scm"], { cwd: w.ws, env: w.env });
    assert.equal(failing.code, 1);
    assert.equal(failing.stdout, "1");
    assert.match(failing.stderr, /car/);
    assertNoDenoWording(failing.stderr);
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs scheme reads forms from a pipe, through the launcher and main.ts", async () => {
  const w = await makeWorkspace();
  try {
    for (const direct of [false, true]) {
      const r = await runHs(["scheme"], {
        cwd: w.ws,
        env: w.env,
        stdin: "(+ 1 2)\n(car 1)\n(display 7)\n",
        direct,
      });
      assert.equal(r.code, 1, r.stderr);
      // each form in turn: the error is reported and the next form still runs
      assert.equal(r.stdout, "7");
      assert.match(r.stderr, /car/);
      assertNoDenoWording(r.stderr);
    }
  } finally {
    await w.cleanup();
  }
});

Deno.test("hs scheme on a terminal: the REPL through the launcher's process", async () => {
  const w = await makeWorkspace();
  try {
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "scheme"],
      [["scheme> ", "(define (sq x) (* x x))\r"], ["scheme> ", "(sq 12)\r"], ["144", "\x04"]],
      { cwd: w.ws, env: { ...w.env, TERM: "dumb" } },
    );
    assert.equal(out.exit, 0, out.text);
    assertNoDenoWording(out.text);
  } finally {
    await w.cleanup();
  }
});

Deno.test("an executable commands/scheme still replaces the built-in (no fast path)", async () => {
  const w = await makeWorkspace();
  try {
    await writeExe(join(w.ws, ".harness/commands/scheme"), '#!/bin/sh\necho my-own-scheme "$@"\n');
    assert.equal(schemeFastPathApplies(["scheme", "x"], w.env, w.ws), false);
    const r = await runHs(["scheme", "x"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "my-own-scheme x\n");
  } finally {
    await w.cleanup();
  }
});

Deno.test("the launcher's Scheme run gives up every permission before the program runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hs-scheme-confined-" });
  try {
    await Deno.writeTextFile(join(dir, "p.scm"), "(display (* 6 7))");
    // the launcher's own permissions (deno.json "launcher"), then what is left after the run
    const script = `import { runSchemeConfined } from ${JSON.stringify(MODULE)};
const code = await runSchemeConfined(["--fuel", "1000000", "p.scm"], ${JSON.stringify(dir)});
const left = [];
for (const name of ["read", "write", "net", "env", "run", "ffi", "sys"]) {
  if ((await Deno.permissions.query({ name })).state === "granted") left.push(name);
}
console.log("", code, JSON.stringify(left));`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-prompt", "--allow-read", "--allow-env", "--allow-run", script],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(text, "42 0 []\n", new TextDecoder().decode(out.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the fast path: which word and which file", () => {
  assert.equal(schemeFastPathApplies(["tools"], {}, "/"), false);
  assert.equal(schemeFile(["--fuel", "10", "--env", "A=B", "f.scm", "x"], "/w"), "/w/f.scm");
  assert.equal(schemeFile(["--fuel=10", "../g.scm"], "/w"), "/g.scm");
  assert.equal(schemeFile(["--timeout", "5"], "/w"), undefined);
});

Deno.test("the fast path's own walk finds what core/discovery's walk finds", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "hs-scheme-walk-" }));
  try {
    const ws = join(root, "a", "b", "ws");
    const user = join(root, "user");
    const elsewhere = join(root, "elsewhere");
    for (const d of [ws, user, elsewhere]) await Deno.mkdir(d, { recursive: true });
    const place = async (dir: string) => {
      await Deno.mkdir(join(dir, "commands"), { recursive: true });
      await Deno.writeTextFile(join(dir, "commands", "scheme"), "");
    };
    const clear = async () => {
      for (const d of [join(root, "a", ".harness"), join(user, ".harness"), elsewhere]) {
        await Deno.remove(join(d, "commands"), { recursive: true }).catch(() => {});
      }
    };
    const walk = (env: Record<string, string>, cwd: string) =>
      walkHarnessDirs(cwd, resolvePaths(env, cwd).home).some((d) =>
        statOrUndefined(join(d.dir, "commands", "scheme")) !== undefined
      );
    const cases: [string, () => Promise<void>, Record<string, string>, boolean][] = [
      ["nothing", async () => {}, { HOME: user }, false],
      ["an ancestor's .harness", () => place(join(root, "a", ".harness")), { HOME: user }, true],
      ["~/.harness", () => place(join(user, ".harness")), { HOME: user }, true],
      ["$HARNESS_HOME", () => place(elsewhere), { HOME: user, HARNESS_HOME: elsewhere }, true],
      ["~/.harness under another HARNESS_HOME", () => place(join(user, ".harness")), {
        HOME: user,
        HARNESS_HOME: elsewhere,
      }, false],
    ];
    for (const [what, setup, env, replaced] of cases) {
      await clear();
      await setup();
      for (const cwd of [ws, ws + "/", join(ws, "..", "b", "ws")]) {
        assert.equal(walk(env, cwd), replaced, `discovery's walk: ${what}`);
        assert.equal(schemeFastPathApplies(["scheme"], env, cwd), !replaced, `${what} (${cwd})`);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the fast path resolves the program file as node:path does", () => {
  for (
    const [args, cwd, file] of [
      [["f.scm"], "/w", "f.scm"],
      [["./x/../f.scm"], "/w/v/", "./x/../f.scm"],
      [["../../../f.scm"], "/w", "../../../f.scm"],
      [["/abs//p/./q.scm"], "/w", "/abs//p/./q.scm"],
      [["-", "x"], "/w", "-"],
      [["--max-depth", "3", "a b.scm"], "/", "a b.scm"],
    ] as [string[], string, string][]
  ) {
    assert.equal(schemeFile(args, cwd), resolve(cwd, file), args.join(" "));
  }
});
