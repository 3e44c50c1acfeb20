/**
 * Seed 002 ("Plugins", in French) sentences that no other test checked, each test named by the
 * sentence it quotes (issue 27: the sentence table at the end of docs/plugins.md; the audit sink
 * sentences are in seed002_audit_sentences_test.ts). Plugins are loaded through
 * `Harness.create` (inline, or from a real `plugins.json` with real module files), with the
 * scripted in-process model of tests/core/plugins/_helpers.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RuntimePlugin, setKey, textResult } from "../../core/mod.ts";
import { Harness } from "../../plugins/mod.ts"; // the kernel with its built-in plugins
import { loopbackConf, writeFile } from "../support/workspace.ts";
import { makeRig, modelPlugin, scriptedModel } from "../core/plugins/_helpers.ts";
import { configRecorder, stateOf, toolPlugin, withWorkspace } from "./_seed002_kit.ts";

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

Deno.test("'La boucle d'agent, la Session, les permissions et les registres restent dans le moteur.' (configuration cannot reach the kernel's own plugin)", async () => {
  for (const entry of [{ id: "core", enabled: false }, { id: "core", config: {} }]) {
    await assert.rejects(
      makeRig([], { config: { runtimePlugins: [entry] } }),
      /the "core" plugin is the kernel's loop and cannot be configured/,
    );
  }
});

Deno.test("'Ajoutez au besoin des diagnostics nettoyés avec le logger propre au plugin.' (ctx.logger lines reach the harness log, by plugin)", async () => {
  const chatty: RuntimePlugin = {
    id: "chatty",
    version: "1",
    apiVersion: 1,
    setup(ctx) {
      ctx.logger.info("connected to the vault");
      ctx.logger.warn("token expires soon");
    },
  };
  const rig = await makeRig([chatty]);
  try {
    assert.ok(rig.lines.includes("[chatty] info: connected to the vault"), rig.lines.join("\n"));
    assert.ok(rig.lines.includes("[chatty] warn: token expires soon"), rig.lines.join("\n"));
  } finally {
    await rig.close();
  }
});
