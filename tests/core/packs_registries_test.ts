/**
 * Behavior packs feed the same registries as executables and runtime plugins (issue 26,
 * step 3): a bot's guards and effect hooks are registry entries the dispatcher reads, its
 * tools and prompt are entries scoped to its principal, its tool ceiling is a property of
 * the principal — all owned by the bot, published again when its status changes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type EffectCall, resultText, textResult } from "../../core/mod.ts";
import { Harness } from "../../plugins/mod.ts";

const PROGRAM = `
(guard/shell :match "rm *" :middleware (lambda (raw invoke) (invoke raw)))
(define/tool 'p_tool :kind 'tool :description "the bot's own tool" :input (z/object (dict))
  :handler (lambda (i) "from the bot"))
`;

async function workspace(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "hs-packreg-" });
  const pack = join(root, "ws", ".harness", "packs", "p");
  await Deno.mkdir(join(pack, "bots"), { recursive: true });
  await Deno.mkdir(join(root, "home"), { recursive: true });
  await Deno.writeTextFile(
    join(pack, "plugin.json"),
    JSON.stringify({
      name: "p",
      version: "1.0.0",
      extensions: { "tools.inhuman": { bots: ["./bots/main.prompt"] } },
    }),
  );
  await Deno.writeTextFile(
    join(pack, "bots", "main.prompt"),
    "---\nattach: foreground\ntools: [p_tool, read_file]\nbehavior:\n  program: ../main.scm\n---\nThe P bot.\n",
  );
  await Deno.writeTextFile(join(pack, "main.scm"), PROGRAM);
  return root;
}

const call = (tool: string): EffectCall => ({
  point: tool === "bash" ? "shell" : "tool",
  tool,
  owner: { kind: "builtin", id: "test" },
  principal: "main",
  callId: `c-${tool}`,
  input: { command: "ls" },
});

Deno.test("a pack's bot publishes its guards, tools, prompt and ceiling into the registries, owned by the bot", async () => {
  const root = await workspace();
  const h = await Harness.create({
    cwd: join(root, "ws"),
    env: { HOME: root, HARNESS_HOME: join(root, "home"), PATH: Deno.env.get("PATH") ?? "" },
    trustWorkspace: true,
    ephemeral: true,
    config: { runtimePlugins: [] },
    log: () => {},
  });
  try {
    const r = h.registries;
    const bot = h.packs.bots().find((b) => b.spec.name === "main")!;
    // an unapproved guard: the bot waits, and nothing of it is published but its prompt and ceiling
    assert.equal(bot.status, "awaiting approval");
    assert.deepEqual(r.guards.entries(), []);
    assert.deepEqual(r.tools.scoped("main"), []);
    await h.packs.approve(bot);
    assert.equal(bot.status, "attached");

    const owner = { kind: "behavior" as const, pack: "p", bot: "main" };
    const guards = r.guards.entries();
    assert.equal(guards.length, 1, "the bot's guard is a registry entry");
    assert.deepEqual(guards[0].owner, owner);
    const tools = r.tools.scoped("main");
    assert.deepEqual(tools.map((e) => [e.key, e.owner]), [["p_tool", owner]]);
    assert.ok(!r.tools.values().some((t) => t.name === "p_tool"), "not a tool of every agent");
    assert.deepEqual(r.tools.scoped("agent:other"), []);
    const prompts = r.prompts.scoped("main");
    assert.equal(prompts.length, 1);
    assert.equal(await prompts[0].value.render(), "The P bot.");
    assert.deepEqual([...r.principals.get("main")!.ceiling!].sort(), ["p_tool", "read_file"]);
    assert.deepEqual(h.registries.contributions(owner), {
      tool: ["p_tool"],
      "prompt section": ["bot:p/main"],
      guard: [guards[0].key],
      principal: ["main"],
    });

    // the consequence: the dispatcher reads the ceiling of the principal from there
    const refused = await h.dispatcher.dispatch(
      call("bash"),
      () => Promise.resolve(textResult("ran")),
    );
    assert.equal(refused.isError, true, "bash is outside main's ceiling");
    const allowed = await h.dispatcher.dispatch(
      call("read_file"),
      () => Promise.resolve(textResult("ran")),
    );
    assert.notEqual(allowed.isError, true);
    assert.equal(resultText(allowed), "ran", "read_file is inside it: the core ran");

    // a new load withdraws what the last one published (no duplicate, no conflict)
    await h.packs.load();
    assert.equal(r.tools.scoped("main").length, 1);
    assert.equal(r.guards.entries().length, 1);
  } finally {
    await h.close();
    await Deno.remove(root, { recursive: true });
  }
});
