/**
 * `ask` rules: headless runs deny (or approve with `--yes`); the REPL prompts
 * on its terminal (driven through a pseudo-terminal) and remembers "always"
 * for the session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { hsArgs, loopbackConf, sessionsOf, writeFile } from "../support/workspace.ts";
import { makeRig, runCalls } from "./_helpers.ts";
import { runInPty } from "../support/pty.ts";

const ASK_RULES = JSON.stringify({
  rules: { ask: ["bash(echo ask*)", "write_file(asked/**)", "read_file(asked/**)"] },
});

Deno.test("headless: ask denies, --yes approves", async () => {
  const rig = await makeRig();
  try {
    await writeFile(join(rig.w.ws, ".harness/floor.json"), ASK_RULES);
    const calls = [{ id: "q1", name: "write_file", input: { path: "asked/a.txt", content: "x" } }];
    const a = await runCalls(rig, calls);
    assert.equal(a.run.code, 0, a.run.stderr);
    assert.equal(a.outcomes.get("q1")!.error, true);
    assert.match(a.outcomes.get("q1")!.result, /permission denied.*write_file\(asked\/\*\*\)/);
    const b = await runCalls(rig, calls, ["--yes"]);
    assert.equal(b.outcomes.get("q1")!.error, false, b.outcomes.get("q1")!.result);
  } finally {
    await rig.close();
  }
});

Deno.test("REPL: ask prompts on the terminal; always is remembered, never denies", async () => {
  const rig = await makeRig();
  try {
    await writeFile(join(rig.w.ws, ".harness/floor.json"), ASK_RULES);
    const server = await startScriptedServer([
      // file tools: the REPL path is the same with or without bubblewrap
      {
        toolCalls: [{ id: "r1", name: "write_file", input: { path: "asked/a.txt", content: "1" } }],
      },
      {
        toolCalls: [{ id: "r2", name: "write_file", input: { path: "asked/b.txt", content: "2" } }],
      },
      { toolCalls: [{ id: "r3", name: "read_file", input: { path: "asked/a.txt" } }] },
      { text: "ALL-DONE" },
    ]);
    try {
      await writeFile(join(rig.w.ws, ".harness/providers/loop.conf"), loopbackConf(server.url));
      await writeFile(join(rig.w.ws, ".harness/settings.conf"), "provider=loop\n");
      const hs = [Deno.execPath(), ...hsArgs(), "repl"];
      // r1: always (r2 is then not asked), r3: never
      // a third prompt (r2 asked despite "always") would block before ALL-DONE: a timeout
      const out = await runInPty(hs, [
        ["›", "go\r"],
        ["[n]ever:", "a\r"],
        ["[n]ever:", "n\r"],
        ["ALL-DONE", ""],
        ["›", "/quit\r"],
      ], { cwd: rig.w.ws, env: { ...rig.w.env, HARNESS_NO_TRUST_PROMPT: "1", TERM: "dumb" } });
      assert.equal(out.code, 0, out.text);
      assert.equal(out.text.split("[n]ever:").length - 1, 2, out.text);
      const sessions = sessionsOf(rig.w);
      const sid = [...Deno.readDirSync(sessions)][0].name;
      const msgs = join(sessions, sid, "messages");
      const results = [...Deno.readDirSync(msgs)].map((e) => e.name).filter((n) =>
        n.endsWith("tool_result.md")
      ).sort().map((n) => Deno.readTextFileSync(join(msgs, n)));
      assert.equal(results.length, 3);
      assert.match(results[1], /wrote 1 bytes/);
      assert.match(results[2], /error: true/);
      assert.match(results[2], /permission denied/);
    } finally {
      await server.close();
    }
  } finally {
    await rig.close();
  }
});
