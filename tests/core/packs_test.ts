/**
 * Pack manifests and bots (seed 000 §1 "plugin.json", §2 "Bot frontmatter"); each test quotes
 * the sentence it checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { GuardApprovals, loadYaml, PackError, readBot, readPack } from "../../core/mod.ts";

// readBot and readPack are synchronous: the YAML reader is loaded first (as Packs.load does)
await loadYaml();

async function pack(files: Record<string, string>, fn: (root: string) => void | Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "hs-packm-" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(join(root, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, name), text);
    }
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const manifest = (ext: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: "p", version: "1.0.0", ...extra, extensions: { "tools.inhuman": ext } });

function packError(root: string, pattern: RegExp): void {
  assert.throws(() => readPack(root, "/data"), (e: unknown) => {
    assert.ok(e instanceof PackError);
    assert.match((e as Error).message, /plugin\.json: /);
    assert.match((e as Error).message, pattern);
    return true;
  });
}

Deno.test("'Unknown state scopes are a load error.'", async () => {
  await pack({ "plugin.json": manifest({ states: { team: "./s.scm" } }), "s.scm": "" }, (root) => {
    packError(root, /unknown state scope "team" \(use session, project, global\)/);
  });
});

Deno.test("'A path that escapes the package root or names a missing file is a load error.'", async () => {
  await pack({ "plugin.json": manifest({ bots: ["../elsewhere.prompt"] }) }, (root) => {
    packError(root, /bot "\.\.\/elsewhere\.prompt" escapes the pack root/);
  });
  await pack({ "plugin.json": manifest({ bots: ["./bots/none.prompt"] }) }, (root) => {
    packError(root, /bot "\.\/bots\/none\.prompt" names a missing file/);
  });
});

Deno.test("'A states-only pack with no bot is valid.'", async () => {
  await pack({
    "plugin.json": manifest({ states: { session: "./s.scm", project: "./p.scm" } }),
    "s.scm": "",
    "p.scm": "",
  }, (root) => {
    const m = readPack(root, "/data");
    assert.deepEqual(m.bots, []);
    assert.deepEqual(Object.keys(m.states).sort(), ["project", "session"]);
  });
});

Deno.test("closed top-level fields: unknown ones reported and ignored; other namespaces unvalidated; interceptingHooks and notifyingHooks dropped", async () => {
  await pack({
    "plugin.json": JSON.stringify({
      name: "p",
      colour: "red",
      extensions: {
        "tools.inhuman": { interceptingHooks: ["x"], notifyingHooks: [] },
        "com.example": { anything: [1, { goes: true }] },
      },
    }),
  }, (root) => {
    const m = readPack(root, "/data");
    assert.deepEqual(m.notices, [
      'unknown field "colour" ignored',
      "interceptingHooks is not executed: the manifest schema drops it",
      "notifyingHooks is not executed: the manifest schema drops it",
    ]);
  });
});

Deno.test("skills/*/SKILL.md and mcp.json in fixed places; ${PLUGIN_ROOT} and ${PLUGIN_DATA} expand; mcp records are kept, not spawned", async () => {
  await pack({
    "plugin.json": manifest({
      mcp: [{
        name: "memory",
        visibility: "private",
        command: "${PLUGIN_ROOT}/bin/mem",
        args: ["--data", "${PLUGIN_DATA}"],
      }],
    }),
    "skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\n",
    "skills/not-a-skill/readme.txt": "",
    "mcp.json": "{}",
  }, (root) => {
    const m = readPack(root, "/data");
    assert.deepEqual(m.skills, [join(root, "skills/a")]);
    assert.equal(m.mcpJson, join(root, "mcp.json"));
    assert.deepEqual(m.mcp, [{
      name: "memory",
      visibility: "private",
      command: `${root}/bin/mem`,
      args: ["--data", "/data/p"],
      scope: undefined,
    }]);
  });
});

const bot = (fm: string, body = "Prompt body.") => `---\n${fm}\n---\n${body}\n`;

Deno.test("bots: 'The file stem is the agent name.' 'A bot with no behavior block … registers nothing.' scope defaults to session", async () => {
  await pack({ "bots/helper.prompt": bot("tools: [read_file]") }, (root) => {
    const b = readBot(join(root, "bots/helper.prompt"), root);
    assert.equal(b.name, "helper");
    assert.equal(b.attach, "named");
    assert.equal(b.scope, "session");
    assert.equal(b.behavior, undefined);
    assert.deepEqual(b.tools, ["read_file"]);
    assert.equal(b.prompt, "Prompt body.");
  });
});

Deno.test("bots: 'program is required when behavior is present. Paths resolve from the bot file and stay inside the package.'", async () => {
  await pack({
    "bots/a.prompt": bot("behavior:\n  configuration: {x: 1}"),
    "bots/b.prompt": bot("behavior:\n  program: ../../outside.scm"),
    "bots/c.prompt": bot("behavior:\n  program: ../b/prog.scm\n  configuration: {strict: true}"),
    "b/prog.scm": "",
  }, (root) => {
    assert.throws(
      () => readBot(join(root, "bots/a.prompt"), root),
      /behavior\.program is required/,
    );
    assert.throws(() => readBot(join(root, "bots/b.prompt"), root), /escapes the pack root/);
    const c = readBot(join(root, "bots/c.prompt"), root);
    assert.equal(c.behavior?.program, join(root, "b/prog.scm"));
    assert.deepEqual(c.behavior?.configuration, { strict: true });
  });
});

Deno.test("bots: 'A foreground bot has no scope.' 'environment … is not supported. A bot that declares one does not attach'", async () => {
  await pack({
    "f.prompt": bot("attach: foreground\nscope: project"),
    "e.prompt": bot("environment: ./env.js"),
  }, (root) => {
    assert.throws(() => readBot(join(root, "f.prompt"), root), /a foreground bot has no scope/);
    const e = readBot(join(root, "e.prompt"), root);
    assert.match(e.problem!, /environment \(a JS module run in the host\) is not supported/);
  });
});

Deno.test("bots: 'Template holes cannot replace program, environment, or bindings.'", async () => {
  await pack({
    "h.prompt": bot("behavior:\n  program: '{{program}}'"),
    "i.prompt": bot(
      "behavior:\n  program: ./p.scm\n  bindings:\n    x: {plugin: '{{who}}', methods: [get]}",
    ),
    "p.scm": "",
  }, (root) => {
    assert.throws(
      () => readBot(join(root, "h.prompt"), root),
      /template holes cannot replace program/,
    );
    assert.throws(
      () => readBot(join(root, "i.prompt"), root),
      /template holes cannot replace bindings/,
    );
  });
});

Deno.test("'Unchanged hashes do not prompt.' — an approval is one pack's, bot's and guard's; the old format grants nothing", async () => {
  const home = await Deno.makeTempDir({ prefix: "hs-approvals-" });
  try {
    const g = { pack: "a", bot: "main", guard: "g", point: "shell", loc: "main.scm:1:1" };
    const file = join(home, "guard-approvals.json");
    // the first format, keyed by the hash alone
    await Deno.writeTextFile(
      file,
      JSON.stringify({ version: 1, approved: { h1: { pack: "a", bot: "main", guard: "g" } } }),
    );
    const old = new GuardApprovals(home);
    assert.equal(old.isApproved({ ...g, hash: "h1" }), false, "an old-format approval asks once");
    old.approve([{ ...g, hash: "h1" }]);
    const store = new GuardApprovals(home);
    assert.equal(store.isApproved({ ...g, hash: "h1" }), true);
    assert.equal(store.isApproved({ ...g, hash: "h2" }), false, "a changed hash asks");
    for (const other of [{ pack: "b" }, { bot: "helper" }, { guard: "g2" }]) {
      assert.equal(store.isApproved({ ...g, ...other, hash: "h1" }), false, JSON.stringify(other));
    }
    const data = JSON.parse(await Deno.readTextFile(file));
    assert.equal(data.version, 2);
    assert.deepEqual(
      data.approved.map((e: { pack: string; hash: string }) => [e.pack, e.hash]),
      [["a", "h1"]],
    );
    await Deno.writeTextFile(file, JSON.stringify({ version: 2, approved: {} }));
    assert.throws(() => new GuardApprovals(home), /guard-approvals\.json is not valid/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
