/**
 * Issue 11's reported bugs, each reproduced with a small plugin loaded through
 * `Harness.create` (or `plugins.json`) — these failed before the fix.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  AuditBus,
  type AuditEvent,
  type LifecycleEvents,
  type RuntimePlugin,
  textResult,
} from "../../../core/mod.ts";
import { Harness } from "../../../plugins/mod.ts"; // the kernel with its built-in plugins
import { makeWorkspace, writeFile } from "../../support/workspace.ts";
import { makeRig, modelPlugin, scriptedModel } from "./_helpers.ts";

const echoTool: RuntimePlugin = {
  id: "echo-tools",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
    ctx.tools.register({
      name: "echo",
      description: "echo",
      inputSchema: { type: "object" },
      readOnly: true,
      execute: (input) => Promise.resolve(textResult(JSON.stringify(input))),
    });
  },
};

// --- bug 1 ---------------------------------------------------------------------------------

Deno.test("bug 1: ctx.hooks.on handlers fire with typed payloads, and fail open", async () => {
  const seen: { event: string; payload: Record<string, unknown> }[] = [];
  const observer: RuntimePlugin = {
    id: "observer",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      for (
        const e of [
          "session_created",
          "turn_start",
          "round_start",
          "model_request",
          "model_response",
          "round_end",
          "tool_start",
          "tool_done",
          "turn_end",
        ] as const
      ) {
        ctx.hooks.on(e, (p) => {
          seen.push({ event: e, payload: { ...p } });
        });
      }
      ctx.hooks.on("turn_start", () => {
        throw new Error("observer-secret-1");
      });
      ctx.hooks.on("tool_done", () => Promise.reject(new Error("observer-secret-2")));
      const typed = (p: Readonly<LifecycleEvents["tool_done"]>) => {
        const ms: number = p.durationMs;
        return void ms;
      };
      ctx.hooks.on("tool_done", typed);
    },
  };
  const model = scriptedModel([
    { calls: [{ id: "c1", name: "echo", input: { a: 1 } }] },
    { text: "done" },
  ]);
  const rig = await makeRig([modelPlugin(model), echoTool, observer]);
  try {
    const r = await rig.h.run({ message: "hi" });
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "done");
    assert.deepEqual(seen.map((s) => s.event), [
      "session_created",
      "turn_start",
      "round_start",
      "model_request",
      "model_response",
      "round_end",
      "tool_start",
      "tool_done",
      "round_start",
      "model_request",
      "model_response",
      "round_end",
      "turn_end",
    ]);
    const by = (e: string) => seen.find((s) => s.event === e)!.payload;
    assert.equal(by("session_created").sessionId, r.sessionId);
    assert.equal(by("turn_start").message, "hi");
    assert.equal(by("turn_start").principal, "main");
    assert.equal(by("tool_start").tool, "echo");
    assert.equal(by("tool_start").owner, "plugin:echo-tools");
    assert.equal(by("tool_done").error, false);
    assert.equal(typeof by("tool_done").durationMs, "number");
    assert.ok((by("model_request").tools as number) >= 1);
    assert.equal(by("model_request").messages, 1);
    assert.deepEqual(by("model_response").usage, { input_tokens: 3, output_tokens: 2 });
    assert.equal(by("round_end").stop, "tool_calls");
    assert.equal(seen.at(-1)!.payload.error, false);
    assert.equal(seen.at(-1)!.payload.rounds, 2);
    // handler failures are logged without their text, the run went on
    const log = rig.lines.join("\n");
    assert.match(log, /plugin:observer: turn_start handler failed/);
    assert.doesNotMatch(log, /observer-secret/);
  } finally {
    await rig.close();
  }
});

Deno.test("bug 1: an unknown lifecycle event is rejected at setup", async () => {
  const bad: RuntimePlugin = {
    id: "bad-events",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.hooks.on("event" as "turn_start", () => {});
    },
  };
  const rig = await makeRig([]);
  await rig.close();
  await assert.rejects(makeRig([bad]), /bad-events" failed during setup/);
});

// --- bug 2 ---------------------------------------------------------------------------------

Deno.test("bug 2: a sink that throws synchronously keeps receiving events", async () => {
  const warnings: string[] = [];
  const bus = new AuditBus({ warn: (m) => warnings.push(m) });
  const got: string[] = [];
  bus.add("s", (e) => {
    got.push((e as { tool: string }).tool);
    if (got.length === 1) throw new Error("sync failure");
  });
  const ev = (tool: string): AuditEvent => ({
    type: "tool_execution",
    time: "t",
    tool,
    owner: "o",
    callId: "c",
    durationMs: 0,
    outcome: "ok",
  });
  bus.emit(ev("a"));
  await bus.flush();
  bus.emit(ev("b"));
  bus.emit(ev("c"));
  await bus.flush();
  assert.deepEqual(got, ["a", "b", "c"]);
  assert.equal(warnings.length, 1);
});

Deno.test("bug 2: close() is bounded by the cleanup limit when a sink never settles", async () => {
  const hanging: RuntimePlugin = {
    id: "hanging-sink",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink(() => new Promise(() => {}));
    },
  };
  const model = scriptedModel([
    { calls: [{ id: "c1", name: "echo", input: {} }] },
    { text: "ok" },
  ]);
  const rig = await makeRig([modelPlugin(model), echoTool, hanging], { cleanupBoundMs: 50 });
  const r = await rig.h.run({ message: "go" });
  assert.equal(r.error, false);
  await rig.close(); // resolves (before the fix: never)
  assert.ok(rig.lines.some((l) => /did not drain|dropped/.test(l)), rig.lines.join("\n"));
});

// --- bug 3 ---------------------------------------------------------------------------------

Deno.test("bug 3: plugins.json configures or disables a built-in plugin", async () => {
  const w = await makeWorkspace();
  try {
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "core-tools", enabled: false }] }),
    );
    const h = await Harness.create({ cwd: w.ws, env: w.env, log: () => {}, ephemeral: true });
    try {
      const st = h.admin.runtimePluginStatus().find((s) => s.id === "core-tools")!;
      assert.equal(st.state, "disabled");
      assert.equal(st.builtin, true);
      assert.equal(h.registries.tools.get("bash"), undefined);
    } finally {
      await h.close();
    }
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "core-tools", module: "/x/y.ts" }] }),
    );
    await assert.rejects(
      Harness.create({ cwd: w.ws, env: w.env, log: () => {} }),
      /cannot replace the implementation/,
    );
  } finally {
    await w.cleanup();
  }
});

// --- bug 4 ---------------------------------------------------------------------------------

Deno.test("bug 4: close() during a run stops the model stream, the run is cancelled, new runs are refused", async () => {
  let sawAbort = false;
  let entered!: () => void;
  const inSend = new Promise<void>((r) => entered = r);
  const model = scriptedModel([{ text: "never" }], {
    onSend: (o) =>
      new Promise<void>((_, reject) => {
        entered();
        o.signal.addEventListener("abort", () => {
          sawAbort = true;
          reject(new DOMException("aborted", "AbortError"));
        });
      }),
  });
  const rig = await makeRig([modelPlugin(model)]);
  const running = rig.h.run({ message: "long" });
  await inSend;
  await rig.h.close();
  const r = await running;
  assert.equal(sawAbort, true, "the model stream never saw the stop signal");
  assert.equal(r.error, true);
  assert.equal(r.cancelled, true);
  assert.match(r.message ?? "", /closed/);
  await assert.rejects(rig.h.run({ message: "again" }), /harness is closed/);
  await rig.close();
});

// --- bug 5 ---------------------------------------------------------------------------------

Deno.test("bug 5: sub-agents share the host: setup once, the parent's sinks see their events", async () => {
  let setups = 0;
  const events: AuditEvent[] = [];
  const auditor: RuntimePlugin = {
    id: "auditor",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      setups++;
      ctx.audit.registerSink((e) => {
        events.push(e);
      });
    },
  };
  // main: calls agent; child: calls echo, then answers; main: answers.
  const model = scriptedModel([
    { calls: [{ id: "m1", name: "agent", input: { prompt: "sub task" } }] },
    { calls: [{ id: "s1", name: "echo", input: { x: 1 } }] },
    { text: "child done" },
    { text: "main done" },
  ]);
  const rig = await makeRig([modelPlugin(model), echoTool, auditor]);
  try {
    const r = await rig.h.run({ message: "delegate" });
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "main done");
    await rig.h.audit.flush();
    assert.equal(setups, 1);
    const echo = events.find((e) => e.type === "permission" && e.tool === "echo");
    assert.ok(echo, JSON.stringify(events));
    assert.match((echo as { principal: string }).principal, /^agent:/);
    assert.ok(events.some((e) => e.type === "tool_execution" && e.tool === "agent"));
  } finally {
    await rig.close();
  }
});

// --- bug 6 ---------------------------------------------------------------------------------

Deno.test("bug 6: module paths with # and % load; a rejected create closes its log", async () => {
  const w = await makeWorkspace();
  try {
    const dir = join(w.root, "odd #dir%20x");
    await writeFile(
      join(dir, "plugin.ts"),
      `export default { id: "odd", version: "1", apiVersion: 1, setup() {} };\n`,
    );
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "odd", module: join(dir, "plugin.ts") }] }),
    );
    const h = await Harness.create({ cwd: w.ws, env: w.env, ephemeral: true });
    assert.equal(h.admin.runtimePluginStatus().find((s) => s.id === "odd")?.state, "active");
    await h.close();
    // A required plugin failing: the log was opened (a line written) and must be closed
    // (the resource sanitizer fails this test otherwise).
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "missing", module: join(dir, "nope.ts") }] }),
    );
    await assert.rejects(Harness.create({ cwd: w.ws, env: w.env }), /could not load/);
    assert.match(await Deno.readTextFile(w.env.HARNESS_LOG), /missing: module could not be/);
  } finally {
    await w.cleanup();
  }
});

// --- bug 7 ---------------------------------------------------------------------------------

function skillPlugin(id: string, skill: Record<string, unknown>): RuntimePlugin {
  return {
    id,
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.skills.register(skill as never);
    },
  };
}

Deno.test("bug 7: runtime skills: a file skill's name and a relative directory are rejected", async () => {
  const w = await makeWorkspace();
  try {
    await writeFile(
      join(w.ws, ".harness/skills/deploy/SKILL.md"),
      "---\nname: deploy\ndescription: file skill\n---\nbody\n",
    );
    const h = await Harness.create({
      cwd: w.ws,
      env: w.env,
      userPlugins: false,
      log: () => {},
      runtimePlugins: [
        {
          plugin: skillPlugin("dup-skill", { name: "deploy", description: "d", body: "b" }),
          required: false,
        },
        {
          plugin: skillPlugin("rel-dir", {
            name: "other",
            description: "d",
            body: "b",
            directory: "rel/dir",
          }),
          required: false,
        },
        {
          plugin: skillPlugin("ok-skill", {
            name: "fine",
            description: "d",
            body: "b",
            directory: w.ws,
          }),
        },
      ],
    });
    try {
      const st = Object.fromEntries(h.admin.runtimePluginStatus().map((s) => [s.id, s.state]));
      assert.equal(st["dup-skill"], "failed");
      assert.equal(st["rel-dir"], "failed");
      assert.equal(st["ok-skill"], "active");
      const skills = h.catalog.skills().skills;
      assert.equal(skills.find((s) => s.name === "deploy")?.description, "file skill");
      assert.ok(skills.some((s) => s.name === "fine"));
    } finally {
      await h.close();
    }
  } finally {
    await w.cleanup();
  }
});

Deno.test("bug 7: the same model id on two providers is rejected", async () => {
  const a = scriptedModel([], { name: "pa" });
  const b = scriptedModel([], { name: "pb" });
  const pa: RuntimePlugin = {
    id: "pa",
    version: "1",
    apiVersion: 1,
    setup: (ctx) => ctx.models.register(a, [{ id: "shared-model" }]),
  };
  const pb: RuntimePlugin = {
    id: "pb",
    version: "1",
    apiVersion: 1,
    setup: (ctx) => ctx.models.register(b, [{ id: "shared-model" }]),
  };
  await assert.rejects(makeRig([pa, pb]), /required runtime plugin "pb" failed during setup/);
});

Deno.test("bug 7: a throwing prompt section is left out; its text reaches no result, log or .stream", async () => {
  const bad: RuntimePlugin = {
    id: "bad-prompt",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.prompts.register({
        id: "boom",
        order: 150,
        render: () => {
          throw new Error("prompt-secret-xyz");
        },
      });
    },
  };
  const rig = await makeRig([modelPlugin(scriptedModel([{ text: "fine" }])), bad]);
  try {
    const r = await rig.h.run({ message: "hi" });
    assert.equal(r.error, false, r.message);
    assert.equal(r.output, "fine");
    const stream = await Deno.readTextFile(join(r.sessionDir, ".stream"));
    for (const text of [JSON.stringify(r), rig.lines.join("\n"), stream]) {
      assert.doesNotMatch(text, /prompt-secret-xyz/);
    }
    assert.ok(rig.lines.some((l) => /section "boom" of plugin:bad-prompt failed/.test(l)));
  } finally {
    await rig.close();
  }
});

// --- bug 8 ---------------------------------------------------------------------------------

Deno.test("bug 8: an ask has a decision record and a response record", async () => {
  const events: AuditEvent[] = [];
  const model = scriptedModel([{ calls: [{ id: "c1", name: "echo", input: {} }] }, {
    text: "ok",
  }]);
  const rig = await makeRig([modelPlugin(model), echoTool], {
    floor: {
      decide: () => ({ decision: "ask", rule: "ask-all" }),
      ask: () => Promise.resolve(true),
    },
  });
  try {
    rig.h.audit.add("probe", (e) => {
      events.push(e);
    });
    const r = await rig.h.run({ message: "x" });
    assert.equal(r.error, false, r.message);
    await rig.h.audit.flush();
    const perms = events.filter((e) => e.type === "permission");
    assert.deepEqual(
      perms.map((p) => p.type === "permission" && [p.record, p.decision, p.callId]),
      [["decision", "ask", "c1"], ["response", "allow", "c1"]],
    );
  } finally {
    await rig.close();
  }
});

Deno.test("bug 8: a start failure is logged", async () => {
  const p: RuntimePlugin = {
    id: "bad-start",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.onStart(() => {
        throw new Error("start-secret");
      });
    },
  };
  const rig = await makeRig([]);
  await rig.close();
  const lines: string[] = [];
  const w = await makeWorkspace();
  try {
    const h = await Harness.create({
      cwd: w.ws,
      env: w.env,
      userPlugins: false,
      log: (l) => lines.push(l),
      runtimePlugins: [{ plugin: p, required: false }],
    });
    await h.close();
    assert.ok(lines.some((l) => /bad-start: start failed/.test(l)), lines.join("\n"));
    assert.ok(!lines.join("\n").includes("start-secret"));
  } finally {
    await w.cleanup();
  }
});
