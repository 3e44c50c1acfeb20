/**
 * `audit-jsonl`: a new file 0600, appended to, every event a JSON line in order,
 * drained before close; an existing file's mode is kept; fail-closed refuses a
 * decision whose record cannot be written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RuntimePlugin } from "../../core/mod.ts";
import { textResult } from "../../core/mod.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { makeWorkspace } from "../support/workspace.ts";

const tools: RuntimePlugin = {
  id: "t",
  version: "1",
  apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({
      name: "noop",
      description: "noop",
      inputSchema: { type: "object" },
      execute: () => Promise.resolve(textResult("done")),
    });
  },
};

const script = () =>
  scriptedModel([
    {
      calls: [{ id: "a", name: "noop", input: {} }, { id: "b", name: "noop", input: {} }],
    },
    { text: "ok" },
  ]);

Deno.test("audit-jsonl: a 0600 file of JSON lines, in order, complete after close", async () => {
  const w = await makeWorkspace();
  const path = join(w.root, "audit", "deep", "events.jsonl");
  const rig = await makeRig([modelPlugin(script()), tools], {
    config: { runtimePlugins: [{ id: "audit-jsonl", config: { path } }] },
  }, w);
  const r = await rig.h.run({ message: "go" });
  assert.equal(r.error, false, r.message);
  await rig.h.close();
  const st = await Deno.stat(path);
  assert.equal(st.mode! & 0o777, 0o600);
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((e) => [e.type, e.callId]), [
    ["permission", "a"],
    ["tool_execution", "a"],
    ["permission", "b"],
    ["tool_execution", "b"],
  ]);
  assert.ok(!JSON.stringify(lines).includes("done"), "no output bodies");
  // appending keeps what is there, and the mode of an existing file
  await Deno.chmod(path, 0o640);
  const rig2 = await makeRig([modelPlugin(script()), tools], {
    config: { runtimePlugins: [{ id: "audit-jsonl", config: { path } }] },
  }, w);
  await rig2.h.run({ message: "again" });
  await rig2.h.close();
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o640);
  assert.equal((await Deno.readTextFile(path)).trim().split("\n").length, 8);
  await rig.close();
});

Deno.test("audit-jsonl: a relative path is an invalid configuration", async () => {
  await assert.rejects(
    makeRig([], {
      config: { runtimePlugins: [{ id: "audit-jsonl", config: { path: "x.jsonl" } }] },
    }),
    /"audit-jsonl" could not load: invalid configuration/,
  );
});

Deno.test("audit fail-closed: a decision whose record cannot be written is refused", async () => {
  let ran = 0;
  const counted: RuntimePlugin = {
    id: "counted",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name: "noop",
        description: "noop",
        inputSchema: { type: "object" },
        execute: () => {
          ran++;
          return Promise.resolve(textResult("done"));
        },
      });
    },
  };
  let fail = false;
  const strict: RuntimePlugin = {
    id: "strict-audit",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink(() => {
        if (fail) throw new Error("disk full");
      }, { failClosed: true });
    },
  };
  const twice = scriptedModel([
    { calls: [{ id: "a", name: "noop", input: {} }, { id: "b", name: "noop", input: {} }] },
    { text: "ok" },
    { calls: [{ id: "c", name: "noop", input: {} }, { id: "d", name: "noop", input: {} }] },
    { text: "ok" },
  ]);
  const rig = await makeRig([modelPlugin(twice), counted, strict]);
  try {
    const ok = await rig.h.run({ message: "go" });
    assert.equal(ok.error, false);
    assert.equal(ran, 2);
    fail = true;
    const r = await rig.h.run({ message: "go", session: ok.sessionId });
    const results = rig.h.runs.openSession(r.sessionDir).messages().filter((m) =>
      m.role === "tool_result"
    ).slice(-2) as { text: string; error: boolean }[];
    assert.equal(ran, 2, "the tool ran although its decision was not recorded");
    for (const t of results) {
      assert.equal(t.error, true);
      assert.match(t.text, /audit record .* could not be written/);
    }
  } finally {
    await rig.close();
  }
});

Deno.test("audit fail-closed: a sink that does not confirm in time refuses the call and the message states the real wait", async () => {
  // seed 002 (issue 27 point 13): the bound is the cleanup bound; the refusal and the log say
  // which sink did not confirm and how long the call really waited
  let ran = 0;
  let release!: () => void;
  const hung = new Promise<void>((r) => release = r);
  const counted: RuntimePlugin = {
    id: "counted",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name: "noop",
        description: "noop",
        inputSchema: { type: "object" },
        execute: () => {
          ran++;
          return Promise.resolve(textResult("done"));
        },
      });
    },
  };
  const stuck: RuntimePlugin = {
    id: "stuck-audit",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink((e) => e.type === "permission" ? hung : undefined, {
        failClosed: true,
      });
    },
  };
  const rig = await makeRig([
    modelPlugin(scriptedModel([{ calls: [{ id: "a", name: "noop", input: {} }] }, { text: "ok" }])),
    counted,
    stuck,
  ], { cleanupBoundMs: 300 });
  try {
    const r = await rig.h.run({ message: "go" });
    const result = rig.h.runs.openSession(r.sessionDir).messages().find((m) =>
      m.role === "tool_result"
    ) as { text: string; error: boolean };
    assert.equal(ran, 0, "the tool ran although its decision was not recorded");
    assert.equal(result.error, true);
    const m = result.text.match(
      /the audit sink of plugin stuck-audit did not confirm within 300 ms \(waited (\d+) ms\)/,
    );
    assert.ok(m, result.text);
    assert.ok(Number(m[1]) >= 300, result.text);
    assert.ok(
      rig.lines.some((l) => /stuck-audit did not confirm within 300 ms \(waited \d+ ms\)/.test(l)),
      rig.lines.join("\n"),
    );
  } finally {
    release();
    await rig.close();
  }
});
