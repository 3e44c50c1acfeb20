/**
 * Behavior packs, continued (seed 000 §2 and §4): turn and round guards and hooks, the effect
 * ceiling against a pack's own tools, the foreground opt-out, and packs shipped by runtime
 * plugins — through `deno task hs` with a scripted model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import { loopbackWorkspace, plainBody, runHs, writeFile } from "../support/workspace.ts";

const PROGRAM = `
(guard/turn :id 'no-secrets-talk :match "*password*"
  :middleware (lambda (record invoke) (refuse "this bot does not discuss passwords")))
(define rounds 0)
(hook/round :id 'rounds :pre (lambda (record)
  (set! rounds (+ rounds 1))
  (display (string-append "round " (number->string (:round record)) " of turn "
                          (number->string (:turn record)) "\\n"))))
(define/tool 'allowed_tool :kind 'tool :description "in the ceiling" :input (z/object (dict))
  :handler (lambda (i) "allowed ran"))
(define/tool 'hidden_tool :kind 'tool :description "not in the ceiling" :input (z/object (dict))
  :handler (lambda (i) "hidden ran"))
`;

async function withPack(script: ScriptedTurn[], where: "workspace" | "plugin" = "workspace") {
  const t = await loopbackWorkspace([...script, { text: "done" }]);
  const dir = where === "workspace"
    ? join(t.w.ws, ".harness/packs/bounds")
    : join(t.w.root, "shipped/bounds");
  await writeFile(
    join(dir, "plugin.json"),
    JSON.stringify({ name: "bounds", extensions: { "tools.inhuman": { bots: ["bot.prompt"] } } }),
  );
  await writeFile(
    join(dir, "bot.prompt"),
    "---\nattach: foreground\ntools: [allowed_tool, read_file]\nbehavior:\n  program: ./b.scm\n---\nBounded bot.\n",
  );
  await writeFile(join(dir, "b.scm"), PROGRAM);
  if (where === "plugin") {
    await writeFile(
      join(t.w.root, "shipped/plugin.ts"),
      `export default { id: "shipper", version: "1.0.0", apiVersion: 1,
        setup(ctx) { ctx.packs.register(${JSON.stringify(dir)}); } };`,
    );
    await writeFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({
        runtimePlugins: [{ id: "shipper", module: join(t.w.root, "shipped/plugin.ts") }],
      }),
    );
  }
  const approve = await runHs(["packs", "approve"], { cwd: t.w.ws, env: t.w.env });
  assert.equal(approve.code, 0, approve.stderr);
  return t;
}

Deno.test("'Turn and round hooks receive the boundary record'; a guard/turn refuses a turn", async () => {
  const t = await withPack([
    { toolCalls: [{ id: "a", name: "allowed_tool", input: {} }] },
  ]);
  try {
    const r = await runHs(["go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const log = await Deno.readTextFile(t.w.env.HARNESS_LOG);
    assert.match(log, /round 1 of turn 1\n[\s\S]*round 2 of turn 1/);
    const refused = await runHs(["what", "is", "the", "password?"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /refused by guard bounds\/bot\/no-secrets-talk: this bot does not discuss passwords/,
    );
    // the error display adds its prefix once
    assert.match(refused.stderr, /^hs: error: refused by guard bounds\/bot\/no-secrets-talk/m);
    assert.equal(t.server.requests.length, 2, "the refused turn sent no request");
  } finally {
    await t.close();
  }
});

Deno.test("'Behavior does not widen the bot's effect ceiling. A tool the ceiling omits does not enter.'", async () => {
  const t = await withPack([
    { toolCalls: [{ id: "h", name: "hidden_tool", input: {} }] },
    { toolCalls: [{ id: "a", name: "allowed_tool", input: {} }] },
  ]);
  try {
    const r = await runHs(["--events", "go"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const done = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
      .filter((e) => e.type === "tool_done");
    assert.equal(done[0].result, "error: tool 'hidden_tool' not found");
    assert.equal(done[1].result, "allowed ran");
    const tools = (t.server.requests[0].body as { tools: { name: string }[] }).tools.map((x) =>
      x.name
    );
    assert.deepEqual(tools.sort(), ["allowed_tool", "read_file"]);
  } finally {
    await t.close();
  }
});

Deno.test("'The host config opts one plugin out with plugins.<name>.foreground: false.'", async () => {
  const t = await withPack([]);
  try {
    await writeFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({ plugins: { bounds: { foreground: false } } }),
    );
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.match(list.stdout, /bot bot \(foreground\) b\.scm: disabled/);
    const r = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    const body = plainBody<{ system: string; tools: unknown[] }>(t.server.requests[0].body);
    assert.doesNotMatch(body.system, /Bounded bot/);
    assert.ok(body.tools.length > 2, "no ceiling: the host's tools");
  } finally {
    await t.close();
  }
});

Deno.test("'plugins.<name>.foreground: false' opts out a foreground bot without behavior too", async () => {
  const t = await loopbackWorkspace([{ text: "one" }, { text: "two" }]);
  try {
    const dir = join(t.w.ws, ".harness/packs/plain");
    await writeFile(
      join(dir, "plugin.json"),
      JSON.stringify({ name: "plain", extensions: { "tools.inhuman": { bots: ["bot.prompt"] } } }),
    );
    await writeFile(
      join(dir, "bot.prompt"),
      "---\nattach: foreground\ntools: [read_file]\n---\nPlain bot prompt.\n",
    );
    const on = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(on.code, 0, on.stderr);
    const first = plainBody<{ system: string; tools: { name: string }[] }>(
      t.server.requests[0].body,
    );
    assert.match(first.system, /Plain bot prompt/, "in: its prompt and its ceiling apply");
    assert.deepEqual(first.tools.map((x) => x.name), ["read_file"]);
    await writeFile(
      join(t.w.home, "plugins.json"),
      JSON.stringify({ plugins: { plain: { foreground: false } } }),
    );
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.match(list.stdout, /bot bot \(foreground\).*: disabled/);
    const off = await runHs(["hi"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(off.code, 0, off.stderr);
    const second = plainBody<{ system: string; tools: unknown[] }>(t.server.requests[1].body);
    assert.doesNotMatch(second.system, /Plain bot prompt/);
    assert.ok(second.tools.length > 2, "no ceiling: the host's tools");
  } finally {
    await t.close();
  }
});

Deno.test("packs come from runtime plugins too (ctx.packs.register)", async () => {
  const t = await withPack([], "plugin");
  try {
    const list = await runHs(["packs"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /bounds .*shipped\/bounds/);
    assert.match(list.stdout, /bot bot \(foreground\) b\.scm: attached/);
  } finally {
    await t.close();
  }
});
