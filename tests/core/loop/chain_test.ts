/**
 * The hook chain of one stage (PROTOCOLS "Hook pipeline"): built-in and
 * executable hooks merged by basename in byte order, each one's output the
 * next one's input, and every way a hook can fail turned into an error
 * context — never a throw. Also the StageRunner that fixes environment,
 * timeout and sandbox around it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  chainFor,
  type ChildSandbox,
  runChain,
  type StageContext,
  type StageHook,
  StageRunner,
  unconfined,
} from "../../../core/mod.ts";
import { emptySnapshot, withTempDir } from "./_fakes.ts";

const ctx: StageContext = {
  kind: "auth-set",
  provider: "p",
  signal: new AbortController().signal,
};

const builtin = (name: string, fn: StageHook["run"]): StageHook => ({
  stage: "s",
  name,
  run: fn,
});

async function exe(dir: string, name: string, body: string): Promise<string> {
  const p = join(dir, name);
  await Deno.writeTextFile(p, body);
  await Deno.chmod(p, 0o755);
  return p;
}

function env(dir: string, signal = new AbortController().signal, timeoutMs = 5000) {
  return {
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    cwd: dir,
    timeoutMs,
    signal,
    log: () => {},
    executableRan: () => {},
    sandbox: unconfined,
  };
}

Deno.test("chainFor: an executable replaces a built-in of its basename; byte order", () => {
  const links = chainFor(
    [builtin("20-b", (i) => Promise.resolve(i)), builtin("10-a", (i) => Promise.resolve(i))],
    new Map([["20-b", "/x/20-b"], ["05-Z", "/x/05-Z"], ["05-a", "/x/05-a"]]),
  );
  assert.deepEqual(links.map((l) => [l.name, l.path ?? "builtin"]), [
    ["05-Z", "/x/05-Z"],
    ["05-a", "/x/05-a"],
    ["10-a", "builtin"],
    ["20-b", "/x/20-b"],
  ]);
});

Deno.test("runChain: each hook's output is the next one's input", async () => {
  await withTempDir(async (dir) => {
    const p = await exe(
      dir,
      "20-exe",
      '#!/bin/sh\npython3 -c \'import json,sys; d=json.load(sys.stdin); d["exe"]=d["n"]+1; print(json.dumps(d))\'\n',
    );
    const r = await runChain(
      "s",
      { n: 1 },
      [
        { name: "10-in", builtin: builtin("10-in", (i) => Promise.resolve({ ...i, n: 41 })) },
        { name: "20-exe", path: p },
      ],
      ctx,
      env(dir),
    );
    assert.deepEqual(r, { ok: true, output: { n: 41, exe: 42 }, last: p }, "the last hook named");
  });
});

Deno.test("runChain: failures become the error context, naming the hook", async () => {
  await withTempDir(async (dir) => {
    const cases: [string, string, RegExp][] = [
      ["10-json", '#!/bin/sh\necho \'{"error":"my own words"}\'\nexit 3\n', /^my own words$/],
      ["10-stderr", "#!/bin/sh\necho oops >&2\nexit 4\n", /exited 4 during s: oops/],
      [
        "10-silent",
        "#!/bin/sh\ncat >/dev/null\n",
        /printed nothing \(a gate or observer hook must print its stdin back\)/,
      ],
      [
        "10-text",
        "#!/bin/sh\necho hello\n",
        /printed something that is not a JSON object: "hello"/,
      ],
      [
        "10-slow",
        "#!/bin/sh\nsleep 30\n",
        /timed out after 1 s during s \(its process group was killed/,
      ],
    ];
    for (const [name, body, expected] of cases) {
      const p = await exe(dir, name, body);
      const r = await runChain("s", {}, [{ name, path: p }], ctx, env(dir, undefined, 1000));
      assert.equal(r.ok, false, name);
      assert.match(String(r.output.error), expected, name);
      if (!r.ok) assert.equal(r.hook, p);
    }
    const thrown = await runChain(
      "s",
      {},
      [{
        name: "10-throws",
        builtin: builtin("10-throws", () => Promise.reject(new Error("inside"))),
      }],
      ctx,
      env(dir),
    );
    assert.deepEqual(thrown, { ok: false, hook: "s/10-throws", output: { error: "inside" } });
  });
});

Deno.test("runChain: cancellation ends a running hook", async () => {
  await withTempDir(async (dir) => {
    const p = await exe(dir, "10-wait", "#!/bin/sh\nsleep 30\n");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const r = await runChain(
      "s",
      {},
      [{ name: "10-wait", path: p }],
      ctx,
      env(dir, controller.signal),
    );
    assert.deepEqual(r.output, { error: "cancelled" });
    assert.ok(Date.now() - started < 10_000);
  });
});

Deno.test("StageRunner: the stage's executables, its environment and the sandbox, always", async () => {
  await withTempDir(async (dir) => {
    const p = await exe(
      dir,
      "10-env",
      '#!/bin/sh\ncat >/dev/null\necho "{\\"stage\\":\\"$HARNESS_STAGE\\",\\"extra\\":\\"$EXTRA\\"}"\n',
    );
    const snapshot = emptySnapshot();
    const source = { dir, kind: "project" as const, root: dir, providerPlugin: false };
    snapshot.hooks.set("auth-set", new Map([["10-env", { name: "10-env", path: p, source }]]));
    const prepared: string[] = [];
    const watching: ChildSandbox = {
      prepare(spec, what) {
        prepared.push(what);
        return Promise.resolve(spec);
      },
    };
    const runner = new StageRunner({
      hooks: () => [],
      env: (req) => ({ PATH: Deno.env.get("PATH") ?? "", HARNESS_STAGE: req.stage }),
      sandbox: watching,
      timeoutMs: 5000,
      log: () => {},
    });
    assert.equal(runner.isEmpty("auth-set", snapshot), false);
    assert.equal(runner.isEmpty("send", snapshot), true);
    const r = await runner.run("auth-set", {}, ctx, {
      snapshot,
      cwd: dir,
      signal: new AbortController().signal,
      extraEnv: { EXTRA: "yes" },
    });
    assert.deepEqual(r, { ok: true, output: { stage: "auth-set", extra: "yes" }, last: p });
    assert.deepEqual(prepared, [`hook ${p}`], "the hook went through the sandbox");
    const refusing: ChildSandbox = {
      prepare: () => Promise.resolve({ refused: "no sandbox here" }),
    };
    const strict = new StageRunner({
      hooks: () => [],
      env: () => ({}),
      sandbox: refusing,
      timeoutMs: 5000,
      log: () => {},
    });
    const denied = await strict.run("auth-set", {}, ctx, {
      snapshot,
      cwd: dir,
      signal: new AbortController().signal,
    });
    assert.equal(denied.ok, false);
    assert.match(String(denied.output.error), /exited 126 during auth-set: no sandbox here/);
  });
});

Deno.test("StageRunner: a stage of in-process hooks only builds no child environment", async () => {
  const built: string[] = [];
  const hook: StageHook = {
    stage: "auth-set",
    name: "10-own",
    run: (input) => Promise.resolve({ ...input, seen: true }),
  };
  const runner = new StageRunner({
    hooks: (stage) => (stage === "auth-set" ? [hook] : []),
    env: (req) => {
      built.push(req.stage);
      return {};
    },
    sandbox: unconfined,
    timeoutMs: 5000,
    log: () => {},
  });
  const r = await runner.run("auth-set", { a: 1 }, ctx, {
    snapshot: emptySnapshot(),
    cwd: "/",
    signal: new AbortController().signal,
    extraEnv: { EXTRA: "yes" },
  });
  assert.deepEqual(r, { ok: true, output: { a: 1, seen: true }, last: "auth-set/10-own" });
  assert.deepEqual(built, [], "no executable hook, no environment");
});
