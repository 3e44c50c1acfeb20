/**
 * Seed 002 ("Plugins", in French) sentences that no other test checked, each test named by the
 * sentence it quotes (issue 27: the sentence table at the end of docs/plugins.md). Plugins are
 * loaded through `Harness.create` (inline, or from a real `plugins.json` with real module files),
 * with the scripted in-process model of tests/core/plugins/_helpers.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  AuditBus,
  type AuditEvent,
  type RuntimePlugin,
  setKey,
  textResult,
  type ToolResult,
} from "../../core/mod.ts";
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins
import { loopbackConf, makeWorkspace, type Workspace, writeFile } from "../support/workspace.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";

/** A plugin with one read-only tool `name` whose `execute` is `run`. */
function toolPlugin(
  id: string,
  name: string,
  run: (input: unknown, signal: AbortSignal) => Promise<ToolResult> = () =>
    Promise.resolve(textResult("done")),
): RuntimePlugin {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.tools.register({
        name,
        description: name,
        inputSchema: { type: "object" },
        readOnly: true,
        execute: (input, tctx) => run(input, tctx.signal),
      });
    },
  };
}

/** A plugin whose setup records the parsed configuration it was given. */
function configRecorder(id: string, seen: unknown[]): RuntimePlugin<unknown> {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    parseConfig: (raw) => raw,
    setup(ctx) {
      seen.push(ctx.config);
    },
  };
}

/** A sink plugin collecting every audit event. */
function sinkPlugin(id: string, events: AuditEvent[], sink?: (e: AuditEvent) => void) {
  return {
    id,
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.audit.registerSink((e) => {
        events.push(e);
        sink?.(e);
      });
    },
  } satisfies RuntimePlugin;
}

const twoCalls = (tool: string, input: unknown = {}) =>
  scriptedModel([
    {
      calls: [{ id: "a", name: tool, input }, { id: "b", name: tool, input }],
    },
    { text: "ok" },
  ]);

async function withWorkspace(fn: (w: Workspace) => Promise<void>): Promise<void> {
  const w = await makeWorkspace();
  try {
    await fn(w);
  } finally {
    // a rejected makeRig already removed it
    await w.cleanup().catch((e) => {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    });
  }
}

function stateOf(h: { admin: { runtimePluginStatus(): { id: string; state: string }[] } }) {
  return (id: string) => h.admin.runtimePluginStatus().find((s) => s.id === id)?.state;
}

// --- Charger et configurer -------------------------------------------------------------------

Deno.test("'Les identifiants en double dans l'une ou l'autre liste sont rejetés.' (duplicate ids in either list are rejected)", async () => {
  const seen: unknown[] = [];
  // inline (what was set up before the duplicate is rolled back)
  await assert.rejects(
    makeRig([configRecorder("twice", seen), configRecorder("twice", seen)]),
    /runtime plugin id "twice" is listed twice/,
  );
  // the configuration list (plugins.json's shape)
  await assert.rejects(
    makeRig([], { config: { runtimePlugins: [{ id: "memory" }, { id: "memory" }] } }),
    /lists "memory" twice/,
  );
});

Deno.test("'Une entrée configurée avec le même identifiant peut configurer ou désactiver un plugin fourni en ligne, mais ne peut pas remplacer son implémentation par un autre module.'", async () => {
  const seen: unknown[] = [];
  const configured = await makeRig([configRecorder("inline-one", seen)], {
    config: { runtimePlugins: [{ id: "inline-one", config: { from: "plugins.json" } }] },
  });
  try {
    assert.deepEqual(seen, [{ from: "plugins.json" }]);
  } finally {
    await configured.close();
  }
  const disabled = await makeRig([configRecorder("inline-one", seen)], {
    config: { runtimePlugins: [{ id: "inline-one", enabled: false }] },
  });
  try {
    assert.equal(stateOf(disabled.h)("inline-one"), "disabled");
    assert.equal(seen.length, 1, "the disabled plugin was not set up");
  } finally {
    await disabled.close();
  }
  await withWorkspace(async (w) => {
    const other = join(w.root, "other.ts");
    await writeFile(
      other,
      `export default { id: "inline-one", version: "1", apiVersion: 1, setup() {} };\n`,
    );
    await assert.rejects(
      makeRig([configRecorder("inline-one", seen)], {
        config: { runtimePlugins: [{ id: "inline-one", module: other }] },
      }),
      /cannot replace the implementation of an inline plugin/,
    );
  });
});

Deno.test("'enabled: false évite entièrement l'import du module, l'analyse de la configuration et le setup.'", async () => {
  await withWorkspace(async (w) => {
    const marker = join(w.root, "imported.txt");
    // importing this module leaves a marker, then the module throws
    const mod = join(w.root, "loud.ts");
    await writeFile(
      mod,
      `Deno.writeTextFileSync(${JSON.stringify(marker)}, "imported");\n` +
        `throw new Error("loud module");\n`,
    );
    const entry = { id: "loud", module: mod, config: { any: "thing" } };
    const off = await makeRig([], {
      config: { runtimePlugins: [{ ...entry, enabled: false }] },
    }, w);
    try {
      assert.equal(stateOf(off.h)("loud"), "disabled");
      assert.throws(() => Deno.statSync(marker), "the module was not imported");
    } finally {
      await off.h.close();
    }
    // the same entry enabled imports it (and fails, optionally): the marker is what import does
    const on = await makeRig([], {
      config: { runtimePlugins: [{ ...entry, enabled: true, required: false }] },
    }, w);
    try {
      assert.equal(stateOf(on.h)("loud"), "failed");
      assert.equal(Deno.readTextFileSync(marker), "imported");
    } finally {
      await on.h.close();
    }
  });
});

Deno.test("'Les modules doivent exporter par défaut une définition de plugin.' (a module without a default export fails)", async () => {
  await withWorkspace(async (w) => {
    const mod = join(w.root, "named.ts");
    await writeFile(
      mod,
      `export const plugin = { id: "named", version: "1", apiVersion: 1, setup() {} };\n`,
    );
    const rig = await makeRig([], {
      config: { runtimePlugins: [{ id: "named", module: mod, required: false }] },
    }, w);
    try {
      const st = rig.h.admin.runtimePluginStatus().find((s) => s.id === "named");
      assert.equal(st?.state, "failed");
      assert.match(st?.reason ?? "", /no default export plugin definition/);
    } finally {
      await rig.h.close();
    }
    await assert.rejects(
      makeRig([], { config: { runtimePlugins: [{ id: "named", module: mod }] } }, w),
      /no default export plugin definition/,
    );
  });
});

Deno.test("'La liste de configuration remplace une liste précédente au lieu de fusionner en profondeur les options des plugins.'", async () => {
  // a configured entry's config replaces the inline one whole: nothing of it is merged
  const seen: unknown[] = [];
  const rig = await makeRig([], {
    runtimePlugins: [{
      plugin: configRecorder("styled", seen),
      config: { greeting: "hi", style: { bold: true } },
    }],
    config: { runtimePlugins: [{ id: "styled", config: { style: { italic: true } } }] },
  });
  await rig.close();
  assert.deepEqual(seen, [{ style: { italic: true } }]);
  // a supplied list replaces the user's plugins.json list (it is not merged into it)
  await withWorkspace(async (w) => {
    const path = join(w.root, "audit.jsonl");
    await writeFile(
      join(w.home, "plugins.json"),
      JSON.stringify({ runtimePlugins: [{ id: "audit-jsonl", config: { path } }] }),
    );
    const fromFile = await makeRig([], { userPlugins: true }, w);
    assert.equal(stateOf(fromFile.h)("audit-jsonl"), "active");
    await fromFile.h.close();
    const replaced = await makeRig([], { config: { runtimePlugins: [] } }, w);
    assert.equal(stateOf(replaced.h)("audit-jsonl"), "disabled");
    await replaced.h.close();
  });
});

Deno.test("'Les modifications s'appliquent à la prochaine création de Harness, pas aux sessions actives.'", async () => {
  await withWorkspace(async (w) => {
    const path = join(w.root, "audit.jsonl");
    const model = scriptedModel([
      { calls: [{ id: "a", name: "noop", input: {} }] },
      { text: "ok" },
      { calls: [{ id: "b", name: "noop", input: {} }] },
      { text: "ok" },
    ]);
    const plugins = [modelPlugin(model), toolPlugin("t", "noop")];
    const active = await makeRig(plugins, { userPlugins: true }, w);
    try {
      const first = await active.h.run({ message: "one" });
      assert.equal(first.error, false, first.message);
      // the user turns audit-jsonl on while this harness runs
      await writeFile(
        join(w.home, "plugins.json"),
        JSON.stringify({ runtimePlugins: [{ id: "audit-jsonl", config: { path } }] }),
      );
      const second = await active.h.run({ message: "two", session: first.sessionId });
      assert.equal(second.error, false, second.message);
      assert.equal(stateOf(active.h)("audit-jsonl"), "disabled");
    } finally {
      await active.h.close();
    }
    assert.throws(() => Deno.statSync(path), "the running harness wrote no audit file");
    const next = await makeRig([], { userPlugins: true }, w);
    try {
      assert.equal(stateOf(next.h)("audit-jsonl"), "active");
    } finally {
      await next.h.close();
    }
  });
});

Deno.test("'La configuration de projet ne peut ni introduire ni reconfigurer de plugins de runtime.' (a trusted workspace's plugins.json is never read)", async () => {
  await withWorkspace(async (w) => {
    const marker = join(w.root, "project-plugin-ran.txt");
    const mod = join(w.ws, ".harness", "intruder.ts");
    await writeFile(
      mod,
      `Deno.writeTextFileSync(${JSON.stringify(marker)}, "imported");\n` +
        `export default { id: "intruder", version: "1", apiVersion: 1, setup() {} };\n`,
    );
    const project = JSON.stringify({
      runtimePlugins: [{ id: "intruder", module: mod }, { id: "memory", enabled: false }],
    });
    await writeFile(join(w.ws, ".harness", "plugins.json"), project);
    await writeFile(join(w.ws, "plugins.json"), project);
    const h = await Harness.create({ cwd: w.ws, env: w.env, ephemeral: true, log: () => {} });
    try {
      const state = stateOf(h);
      assert.equal(state("intruder"), undefined, "the project's plugin was not introduced");
      assert.equal(state("memory"), "active", "the project did not reconfigure memory");
      assert.throws(() => Deno.statSync(marker), "the project's module was never imported");
    } finally {
      await h.close();
    }
  });
});

// --- Interfaces de capacités ---------------------------------------------------------------

Deno.test("'Les skills de runtime ne peuvent pas remplacer … d'autres skills de runtime portant le même nom.'", async () => {
  const skill = (id: string, description: string): RuntimePlugin => ({
    id,
    version: "1",
    apiVersion: 1,
    setup: (ctx) => ctx.skills.register({ name: "tidy", description, body: "Tidy." }),
  });
  const rig = await makeRig([], {
    runtimePlugins: [
      { plugin: skill("first", "the first") },
      { plugin: skill("second", "the second"), required: false },
    ],
  });
  try {
    assert.equal(stateOf(rig.h)("second"), "failed");
    const tidy = rig.h.catalog.skills().skills.filter((s) => s.name === "tidy");
    assert.deepEqual(tidy.map((s) => [s.description, s.owner]), [["the first", "plugin:first"]]);
  } finally {
    await rig.close();
  }
});

Deno.test("a runtime skill 'est retiré automatiquement à l'arrêt de son plugin' (a plugin that fails to start takes its skill with it)", async () => {
  const failing: RuntimePlugin = {
    id: "short-lived",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.skills.register({ name: "fleeting", description: "d", body: "b" });
      ctx.onStart(() => {
        throw new Error("start fails");
      });
    },
  };
  const kept: RuntimePlugin = {
    id: "kept",
    version: "1",
    apiVersion: 1,
    setup: (ctx) => ctx.skills.register({ name: "lasting", description: "d", body: "b" }),
  };
  const rig = await makeRig([], {
    runtimePlugins: [{ plugin: failing, required: false }, { plugin: kept }],
  });
  try {
    assert.equal(stateOf(rig.h)("short-lived"), "failed");
    const names = rig.h.catalog.skills().skills.map((s) => s.name);
    assert.ok(names.includes("lasting"), names.join(","));
    assert.ok(!names.includes("fleeting"), names.join(","));
  } finally {
    await rig.close();
  }
});

Deno.test("'ctx.signal annonce l'arrêt du plugin.' (aborted when the plugin stops, before its disposers run)", async () => {
  let signal: AbortSignal | undefined;
  let abortedInDispose: boolean | undefined;
  const p: RuntimePlugin = {
    id: "watcher",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      signal = ctx.signal;
      ctx.onDispose(() => {
        abortedInDispose = ctx.signal.aborted;
      });
    },
  };
  const rig = await makeRig([p]);
  assert.equal(signal?.aborted, false, "not aborted while the plugin runs");
  await rig.close();
  assert.equal(signal?.aborted, true);
  assert.equal(abortedInDispose, true);
});

Deno.test("'Les outils … reçoivent aussi le signal d'annulation combiné de l'hôte et de l'appel.'", async () => {
  // a tool that waits until its signal aborts
  let entered!: () => void;
  let sawAbort = 0;
  const waiting = toolPlugin("waiter", "wait", (_input, signal) =>
    new Promise((resolve) => {
      entered();
      signal.addEventListener("abort", () => {
        sawAbort++;
        resolve(textResult("aborted", true));
      });
    }));
  const model = scriptedModel([
    { calls: [{ id: "w1", name: "wait", input: {} }] },
    { calls: [{ id: "w2", name: "wait", input: {} }] },
    { text: "never" },
  ]);
  const rig = await makeRig([modelPlugin(model), waiting]);
  try {
    // the call's signal: the run's own signal aborts
    const ac = new AbortController();
    let inTool = new Promise<void>((r) => entered = r);
    const run = rig.h.run({ message: "one", signal: ac.signal });
    await inTool;
    ac.abort();
    const r = await run;
    assert.equal(r.cancelled, true);
    assert.equal(sawAbort, 1, "the tool saw the call's abort");
    // the host's signal: closing the harness aborts the tool of a run in flight
    inTool = new Promise<void>((r) => entered = r);
    const second = rig.h.run({ message: "two" });
    await inTool;
    await rig.h.close();
    const r2 = await second;
    assert.equal(r2.cancelled, true);
    assert.equal(sawAbort, 2, "the tool saw the host's abort");
  } finally {
    await rig.close();
  }
});

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

// --- more of "Interfaces de capacités" and the declarative bundles -----------------------------

Deno.test("'ctx.models.register(provider, models)': 'Implémentation de modèle et ses définitions de modèles, validées de façon atomique'", async () => {
  const provider = scriptedModel([{ text: "never" }], { name: "half" });
  const half: RuntimePlugin = {
    id: "half",
    version: "1",
    apiVersion: 1,
    // its first model is new, its second is a built-in's: nothing of the list may land
    setup: (ctx) =>
      ctx.models.register(provider, [{ id: "half-fresh-1" }, { id: "claude-sonnet-4-5" }]),
  };
  const rig = await makeRig([], { runtimePlugins: [{ plugin: half, required: false }] });
  try {
    assert.equal(stateOf(rig.h)("half"), "failed");
    const offered = rig.h.registries.models.entries().flatMap((e) =>
      e.value.models.map((m) => `${e.key}/${m.id}`)
    );
    assert.ok(!offered.some((m) => m.startsWith("half/")), offered.join(","));
    assert.ok(offered.includes("anthropic/claude-sonnet-4-5"), offered.join(","));
  } finally {
    await rig.close();
  }
});

Deno.test("'ctx.hooks.on(event, handler)': 'avec désabonnement automatique' (a plugin rolled back hears nothing)", async () => {
  const heard: string[] = [];
  const listener = (id: string, failStart: boolean): RuntimePlugin => ({
    id,
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.hooks.on("turn_start", () => {
        heard.push(id);
      });
      if (failStart) {
        ctx.onStart(() => {
          throw new Error("start fails");
        });
      }
    },
  });
  const rig = await makeRig([], {
    runtimePlugins: [
      { plugin: modelPlugin(scriptedModel([{ text: "hi" }])) },
      { plugin: listener("gone", true), required: false },
      { plugin: listener("here", false) },
    ],
  });
  try {
    assert.equal(stateOf(rig.h)("gone"), "failed");
    const r = await rig.h.run({ message: "hello" });
    assert.equal(r.error, false, r.message);
    await rig.h.close(); // drains the lifecycle handlers
    assert.deepEqual(heard, ["here"]);
  } finally {
    await rig.close();
  }
});

Deno.test("'Retirer une implémentation d'authentification n'efface pas les identifiants.'", async () => {
  await withWorkspace(async (w) => {
    const authFile = join(w.home, ".auth.json");
    await setKey(authFile, "other", "stored-key-0123456789");
    const before = await Deno.readTextFile(authFile);
    for (const name of ["vaulted", "other"]) {
      await writeFile(
        join(w.ws, `.harness/providers/${name}.conf`),
        loopbackConf("http://127.0.0.1:9", "anthropic", `auth_env=${name.toUpperCase()}_KEY\n`),
      );
    }
    const vault: RuntimePlugin = {
      id: "vault",
      version: "1",
      apiVersion: 1,
      setup: (ctx) =>
        ctx.auth.register({
          id: "vault",
          resolve: (p) => Promise.resolve(p === "vaulted" ? "vault-key-abcdef0123" : undefined),
        }),
    };
    const ready = async (h: Awaited<ReturnType<typeof Harness.create>>, name: string) =>
      await (await h.catalog.providers()).find((p) => p.name === name)!.provider.ready();
    const withVault = await Harness.create({
      cwd: w.ws,
      env: w.env,
      userPlugins: false,
      ephemeral: true,
      log: () => {},
      runtimePlugins: [{ plugin: vault }],
    });
    try {
      assert.deepEqual(await ready(withVault, "vaulted"), {
        ready: true,
        reason: 'auth plugin "vault"',
      });
    } finally {
      await withVault.close(); // the auth implementation is removed with its plugin
    }
    assert.equal(await Deno.readTextFile(authFile), before, "the stored credentials are untouched");
    const without = await Harness.create({
      cwd: w.ws,
      env: w.env,
      userPlugins: false,
      ephemeral: true,
      log: () => {},
    });
    try {
      assert.equal((await ready(without, "vaulted")).ready, false, "the plugin's key went with it");
      const r = await ready(without, "other");
      assert.equal(r.ready, true, r.reason);
      assert.match(r.reason, /stored key/);
    } finally {
      await without.close();
    }
  });
});

Deno.test("'Les bundles déclaratifs … ne sont jamais importés automatiquement comme modules exécutables.' (a pack's plugins are parsed, never imported)", async () => {
  await withWorkspace(async (w) => {
    const marker = join(w.root, "bundle-imported.txt");
    const pack = join(w.ws, ".harness", "packs", "decl");
    await writeFile(
      join(pack, "plugin.json"),
      JSON.stringify({
        name: "decl",
        extensions: {
          "tools.inhuman": { plugins: ["./plugin.ts"], states: { session: "./s.scm" } },
        },
      }),
    );
    await writeFile(join(pack, "s.scm"), "");
    await writeFile(
      join(pack, "plugin.ts"),
      `Deno.writeTextFileSync(${JSON.stringify(marker)}, "imported");\n` +
        `export default { id: "decl", version: "1", apiVersion: 1, setup() {} };\n`,
    );
    const h = await Harness.create({ cwd: w.ws, env: w.env, ephemeral: true, log: () => {} });
    try {
      await h.packs.load();
      const decl = h.packs.list().find((p) => p.manifest?.name === "decl");
      assert.ok(decl, "the pack loaded");
      assert.deepEqual(decl.manifest?.plugins, ["./plugin.ts"]);
      assert.equal(stateOf(h)("decl"), undefined, "no runtime plugin came of it");
      assert.throws(() => Deno.statSync(marker), "its module was never imported");
    } finally {
      await h.close();
    }
  });
});
