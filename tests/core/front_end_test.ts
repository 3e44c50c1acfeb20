/**
 * The front ends' façade (core/front_end.ts): what `HarnessCore.frontEnd` hands cli/ — runs,
 * catalog, sessions, the packs as a view, admin — reaches none of the kernel's fields; its
 * sessions view finds, lists, opens and creates; trusting through `admin.trust` makes this
 * harness load the workspace's sources.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { HarnessError, Packs, Session, Sessions, TrustStore } from "../../core/mod.ts";
import { makeRig } from "./plugins/_helpers.ts";
import { makeWorkspace, writeExe } from "../support/workspace.ts";

const KERNEL = [
  "registries",
  "host",
  "audit",
  "stages",
  "discovery",
  "providerCatalog",
  "tools",
  "execTools",
  "dispatcher",
  "effectFloor",
  "trust",
  "config",
  "paths",
  "skillCatalog",
  "sources",
];

Deno.test("frontEnd: runs, catalog, sessions, packs, admin — no kernel field, views built once", async () => {
  const rig = await makeRig([]);
  try {
    const f = rig.h.frontEnd;
    assert.equal(rig.h.frontEnd, f, "one façade per harness");
    for (const k of KERNEL) assert.equal(k in f, false, `frontEnd.${k}`);
    assert.equal(f.sessions, f.sessions);
    assert.equal(f.packs, f.packs);
    assert.equal(f.packs instanceof Packs, false, "the packs are a view, not the Packs object");
    assert.equal(f.admin.trust instanceof TrustStore, false, "trust is a view, not the store");
    assert.equal("host" in f.admin, false);
    assert.equal(f.admin.floor, undefined, "no floor requested: none");
    assert.deepEqual(f.where.cwd, rig.w.ws);
    assert.equal(f.settings.provider, "fake");
    assert.equal(f.closed, false);
    await f.close();
    assert.equal(f.closed, true);
    assert.equal(rig.h.closed, true, "closing the façade closes the harness");
    await assert.rejects(f.runs.run({ message: "hi" }), /closed/);
  } finally {
    await rig.close();
  }
});

Deno.test("sessions: create, find, list, open; an unknown id is a HarnessError with a hint", async () => {
  const rig = await makeRig([]);
  try {
    const s = rig.h.frontEnd.sessions;
    assert.deepEqual(s.list(), []);
    const made = s.create({ provider: "fake", model: "m" });
    assert.equal(made.conf.cwd, rig.w.ws, "the harness's cwd by default");
    assert.equal(s.find(made.id), made.dir);
    assert.equal(s.dirOf(made.id), made.dir);
    assert.equal(s.placeOf("nope"), join(s.dir, "nope"));
    assert.deepEqual(s.list().map((r) => r.id), [made.id]);
    assert.equal(s.open(made.id).conf.model, "m");
    // the same view from the paths alone (hs session, hs resume: no harness)
    const { resolvePaths } = await import("../../core/base/mod.ts");
    const alone = new Sessions(resolvePaths(rig.w.env, rig.w.ws));
    assert.deepEqual(alone.list().map((r) => r.id), [made.id]);
    assert.ok(Session.open(alone.dirOf(made.id)));
    assert.throws(() => s.open("nope"), (e: unknown) => {
      assert.ok(e instanceof HarnessError);
      assert.match(e.message, /no session "nope" in /);
      assert.match(e.hint ?? "", /hs session list/);
      return true;
    });
  } finally {
    await rig.close();
  }
});

Deno.test("admin.trust.trust: this harness loads the workspace trusted now (its sources and packs)", async () => {
  const w = await makeWorkspace({ trusted: false });
  await writeExe(
    join(w.ws, ".harness", "tools", "hello"),
    `#!/bin/sh\n[ "$1" = "--schema" ] && echo '{"name":"hello","description":"d","input_schema":{"type":"object"}}'\necho hi\n`,
  );
  await Deno.mkdir(join(w.ws, ".harness", "packs", "p"), { recursive: true });
  await Deno.writeTextFile(
    join(w.ws, ".harness", "packs", "p", "plugin.json"),
    JSON.stringify({ name: "p", version: "1.0.0", extensions: { "tools.inhuman": {} } }),
  );
  const rig = await makeRig([], {}, w);
  try {
    const f = rig.h.frontEnd;
    const dir = join(w.ws, ".harness");
    const packs = () => f.packs.list().map((p) => p.manifest?.name ?? `${p.dir}: ${p.error}`);
    assert.deepEqual(packs(), []);
    assert.deepEqual(f.catalog.snapshot().untrusted, [dir]);
    assert.equal(f.catalog.snapshot().tools.has("hello"), false);
    assert.deepEqual(f.admin.trust.changed(), []);
    await f.admin.trust.trust([w.ws], [dir]);
    assert.deepEqual(f.catalog.snapshot().untrusted, []);
    assert.equal(f.catalog.snapshot().tools.has("hello"), true);
    assert.deepEqual(packs(), ["p"], "the packs of a workspace trusted now belong to this run");
  } finally {
    await rig.close();
  }
});
