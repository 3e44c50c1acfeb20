/**
 * Seed 002 ("Plugins", in French), "Plugin d'audit": sentences about audit sinks that no other
 * test checked, each test named by the sentence it quotes (issue 27: the sentence table at the end
 * of docs/plugins.md). Through `Harness.create` with the scripted in-process model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { AuditBus, type AuditEvent, type RuntimePlugin, textResult } from "../../core/mod.ts";
import { makeWorkspace } from "../support/workspace.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { sinkPlugin, stateOf, toolPlugin, twoCalls, withWorkspace } from "./_seed002_kit.ts";

// --- Plugin d'audit --------------------------------------------------------------------------

Deno.test("'Les événements d'exécution omettent les corps d'entrée et de sortie ainsi que les identifiants.'", async () => {
  const events: AuditEvent[] = [];
  const model = twoCalls("peek", { query: "input-body-7f3" });
  const tool = toolPlugin("peeker", "peek", () => Promise.resolve(textResult("output-body-9c1")));
  const w = await makeWorkspace();
  w.env.EXAMPLE_SERVICE_TOKEN = "tok-credential-55";
  const rig = await makeRig([modelPlugin(model), tool, sinkPlugin("probe", events)], {}, w);
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    await rig.h.audit.flush();
    const executions = events.filter((e) => e.type === "tool_execution");
    assert.equal(executions.length, 2);
    assert.deepEqual(Object.keys(executions[0]).sort(), [
      "callId",
      "durationMs",
      "outcome",
      "owner",
      "time",
      "tool",
      "type",
    ]);
    assert.equal((executions[0] as { owner: string }).owner, "plugin:peeker");
    const text = JSON.stringify(executions);
    assert.doesNotMatch(text, /input-body-7f3|output-body-9c1/);
    assert.doesNotMatch(JSON.stringify(events), /tok-credential-55/);
  } finally {
    await rig.close();
  }
});

Deno.test("'Les enregistrements de permission conservent les champs rule/principal existants'", async () => {
  const events: AuditEvent[] = [];
  const rig = await makeRig([
    modelPlugin(twoCalls("noop")),
    toolPlugin("t", "noop"),
    sinkPlugin("probe", events),
  ], { floor: { decide: () => ({ decision: "allow", rule: "noop(src/**)" }) } });
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    await rig.h.audit.flush();
    const perms = events.filter((e) => e.type === "permission");
    assert.deepEqual(
      perms.map((p) => p.type === "permission" && [p.callId, p.rule, p.principal, p.decision]),
      [["a", "noop(src/**)", "main", "allow"], ["b", "noop(src/**)", "main", "allow"]],
    );
  } finally {
    await rig.close();
  }
});

Deno.test("'les appels bloqués avant le PermissionEngine n'obtiennent pas d'enregistrements de décision supplémentaires'", async () => {
  const events: AuditEvent[] = [];
  let ran = 0;
  const model = scriptedModel([
    {
      calls: [
        { id: "blocked", name: "noop", input: { block: true } },
        { id: "passed", name: "noop", input: {} },
      ],
    },
    { text: "ok" },
  ]);
  const rig = await makeRig([
    modelPlugin(model),
    toolPlugin("t", "noop", () => {
      ran++;
      return Promise.resolve(textResult("done"));
    }),
    sinkPlugin("probe", events),
  ], {
    // a guard on the seam refuses one call before it reaches the floor
    guards: [{
      id: "blocker",
      point: "*",
      middleware: (raw, invoke) =>
        (raw as { block?: boolean }).block
          ? Promise.resolve({ refused: true as const, reason: "blocked before the floor" })
          : invoke(raw),
    }],
  });
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    await rig.h.audit.flush();
    assert.equal(ran, 1);
    const of = (id: string) =>
      events.filter((e) => (e as { callId?: string }).callId === id).map((e) =>
        e.type === "permission" ? `permission:${e.record}` : `${e.type}:${e.outcome}`
      );
    // no permission record: only its execution (a guard's refusal is an error result)
    assert.deepEqual(of("blocked"), ["tool_execution:error"]);
    assert.deepEqual(of("passed"), ["permission:decision", "tool_execution:ok"]);
  } finally {
    await rig.close();
  }
});

Deno.test("'Chaque destination reçoit son propre instantané et sa propre file ordonnée.'", async () => {
  const tampered: AuditEvent[] = [];
  const clean: AuditEvent[] = [];
  const tamperer = sinkPlugin("tamperer", tampered, (e) => {
    (e as { tool: string }).tool = "tampered";
    delete (e as { callId?: string }).callId;
  });
  const rig = await makeRig([
    modelPlugin(twoCalls("noop")),
    toolPlugin("t", "noop"),
    tamperer,
    sinkPlugin("clean", clean),
  ]);
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    await rig.h.audit.flush();
    assert.ok(
      tampered.length > 0 && tampered.every((e) => (e as { tool: string }).tool === "tampered"),
    );
    assert.deepEqual(
      clean.map((e) => [e.type, (e as { tool: string }).tool, (e as { callId: string }).callId]),
      [
        ["permission", "noop", "a"],
        ["tool_execution", "noop", "a"],
        ["permission", "noop", "b"],
        ["tool_execution", "noop", "b"],
      ],
    );
  } finally {
    await rig.close();
  }
});

Deno.test("'Les files sont plafonnées à 1 000 événements en attente par destination ; au-delà, un avertissement est émis et les événements excédentaires sont abandonnés.'", async () => {
  const warnings: string[] = [];
  const bus = new AuditBus({ warn: (m) => warnings.push(m) });
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const got: string[] = [];
  bus.add("slow", async (e) => {
    await gate;
    got.push((e as { callId: string }).callId);
  });
  const ev = (i: number): AuditEvent => ({
    type: "tool_execution",
    time: "t",
    tool: "noop",
    owner: "o",
    callId: `c${i}`,
    durationMs: 0,
    outcome: "ok",
  });
  for (let i = 0; i < 1005; i++) bus.emit(ev(i));
  release();
  await bus.flush();
  assert.equal(got.length, 1000);
  assert.deepEqual(got.slice(0, 3), ["c0", "c1", "c2"]);
  assert.equal(got.at(-1), "c999");
  assert.deepEqual(warnings, ["audit sink slow is 1000 events behind; dropping"]);
});

Deno.test("'audit: false désactive les événements d'audit du runtime' (no sink, audit-jsonl included, gets an event)", async () => {
  await withWorkspace(async (w) => {
    const events: AuditEvent[] = [];
    const path = join(w.root, "audit.jsonl");
    const rig = await makeRig(
      [
        modelPlugin(twoCalls("noop")),
        toolPlugin("t", "noop"),
        sinkPlugin("probe", events),
      ],
      { audit: false, config: { runtimePlugins: [{ id: "audit-jsonl", config: { path } }] } },
      w,
    );
    try {
      const r = await rig.h.run({ message: "go" });
      assert.equal(r.error, false, r.message);
      await rig.h.audit.flush();
    } finally {
      await rig.h.close();
    }
    assert.deepEqual(events, []);
    const text = await Deno.readTextFile(path).catch(() => "");
    assert.equal(text, "", "audit-jsonl wrote no record");
  });
});

Deno.test("'Rendre un plugin d'audit obligatoire garantit le démarrage, pas des écritures avec fermeture par défaut (fail-closed).'", async () => {
  let ran = 0;
  const failing: RuntimePlugin = {
    id: "failing-sink",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink(() => {
        throw new Error("disk full");
      });
    },
  };
  const rig = await makeRig([], {
    runtimePlugins: [
      { plugin: modelPlugin(twoCalls("noop")) },
      {
        plugin: toolPlugin("t", "noop", () => {
          ran++;
          return Promise.resolve(textResult("done"));
        }),
      },
      { plugin: failing, required: true },
    ],
  });
  try {
    assert.equal(stateOf(rig.h)("failing-sink"), "active");
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    assert.equal(ran, 2, "a required sink that cannot write does not refuse the calls");
    await rig.h.audit.flush();
    assert.ok(
      rig.lines.some((l) => /audit sink .*failing-sink.* failed/.test(l)),
      rig.lines.join("\n"),
    );
  } finally {
    await rig.close();
  }
});

Deno.test("'tool_execution : les appels terminés, y compris les erreurs levées par les outils et converties en résultats d'erreur'", async () => {
  const events: AuditEvent[] = [];
  const thrower = toolPlugin("thrower", "boom", () => Promise.reject(new Error("kaboom-detail")));
  const rig = await makeRig([modelPlugin(twoCalls("boom")), thrower, sinkPlugin("probe", events)]);
  try {
    const r = await rig.h.run({ message: "go" });
    assert.equal(r.error, false, r.message);
    await rig.h.audit.flush();
    const executions = events.filter((e) => e.type === "tool_execution");
    assert.deepEqual(
      executions.map((e) => [e.callId, e.tool, e.owner, e.outcome, typeof e.durationMs]),
      [["a", "boom", "plugin:thrower", "error", "number"], [
        "b",
        "boom",
        "plugin:thrower",
        "error",
        "number",
      ]],
    );
    const results = rig.h.runs.openSession(r.sessionDir).messages().filter((m) =>
      m.role === "tool_result"
    );
    assert.equal(results.length, 2, "each throw became an error result the model saw");
  } finally {
    await rig.close();
  }
});
