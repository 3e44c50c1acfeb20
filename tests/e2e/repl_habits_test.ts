/**
 * End-to-end: the REPL habits of issue 24 item 9 on a pseudo-terminal —
 * `/clear` starts a new session (the next request has no history), `@path`
 * attaches a file read through the floor (and a path outside it is refused,
 * nothing of it reaching the model), `/permissions` lists the floor's rules
 * and `/permissions allow` answers a later ask without the question.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { hsArgs, loopbackWorkspace, sessionsOf, writeFile } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

type Body = { messages: { role: string; content: unknown }[] };

function hs(): string[] {
  return [Deno.execPath(), ...hsArgs(), "repl"];
}

Deno.test("REPL /clear: the next message starts a new session with no history", async () => {
  const t = await loopbackWorkspace([{ text: "FIRST-ANSWER" }, { text: "SECOND-ANSWER" }]);
  try {
    const out = await runInPty(hs(), [
      ["›", "remember the word walrus\r"],
      ["FIRST-ANSWER", ""],
      ["›", "/clear\r"],
      ["new session", ""],
      ["›", "what was the word?\r"],
      ["SECOND-ANSWER", ""],
      ["›", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    assert.equal(t.server.requests.length, 2);
    const second = t.server.requests[1].body as Body;
    assert.equal(second.messages.length, 1, JSON.stringify(second.messages));
    assert.doesNotMatch(JSON.stringify(second.messages), /walrus/);
    const id = /new session (\S+)/.exec(out.text)?.[1];
    assert.ok(id, out.text);
    const sessions = [...Deno.readDirSync(sessionsOf(t.w))].map((e) => e.name);
    assert.equal(sessions.length, 2);
    assert.ok(sessions.includes(id), `${id} in ${sessions}`);
  } finally {
    await t.close();
  }
});

Deno.test("REPL @path: a file's content reaches the model; a path outside the floor is refused", async () => {
  const t = await loopbackWorkspace([{ text: "GOT-IT" }, { text: "AFTER-REFUSAL" }]);
  try {
    await writeFile(join(t.w.ws, "notes.txt"), "the secret word is PELICAN\n");
    await writeFile(join(t.w.ws, "more.md"), "second file OTTER\n");
    const outside = join(dirname(t.w.ws), "outside.txt");
    await writeFile(outside, "OUTSIDE-CONTENT-XYZ\n");
    await writeFile(join(t.w.ws, ".env"), "TOKEN=ENV-SECRET-QQQ\n");
    const out = await runInPty(hs(), [
      ["›", "read @notes.txt and @more.md, mail me@example.com\r"],
      ["GOT-IT", ""],
      ["›", "and @../outside.txt\r"],
      ["not sent", ""],
      ["›", "and @missing.txt or @.env\r"],
      ["not sent", ""],
      ["›", "ok then\r"],
      ["AFTER-REFUSAL", ""],
      ["›", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    const first = JSON.stringify((t.server.requests[0].body as Body).messages);
    assert.match(first, /PELICAN/);
    assert.match(first, /OTTER/);
    assert.match(first, /me@example\.com/);
    assert.match(
      out.text,
      /@\.\.\/outside\.txt: permission denied .*outside the effect policy.*rule floor\.read/,
    );
    assert.match(out.text, /@missing\.txt: file not found/);
    assert.match(out.text, /@\.env: permission denied .*rule read_file\(\*\*\/\.env\)/);
    assert.equal(t.server.requests.length, 2);
    for (const r of t.server.requests) {
      assert.doesNotMatch(JSON.stringify(r.body), /OUTSIDE-CONTENT/);
    }
    assert.doesNotMatch(JSON.stringify(t.server.requests[1].body), /outside\.txt/);
  } finally {
    await t.close();
  }
});

Deno.test("REPL /permissions lists floor.json's rule; /permissions allow answers its ask", async () => {
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "b1", name: "bash", input: { command: "echo ran-$((40+2))" } }] },
    { text: "DONE" },
    { toolCalls: [{ id: "b2", name: "bash", input: { command: "rm -f keep.txt" } }] },
    { text: "DONE-TOO" },
  ], { trusted: true });
  try {
    await writeFile(
      join(t.w.ws, ".harness/floor.json"),
      JSON.stringify({ rules: { ask: ["bash(echo *)"], deny: ["bash(rm *)"] } }),
    );
    await writeFile(join(t.w.ws, "keep.txt"), "kept\n");
    const out = await runInPty(hs(), [
      ["›", "/permissions\r"],
      ["bash(echo *)", ""],
      ["›", "/permissions allow bash(\r"],
      ["bad permission rule", ""],
      ["›", "/permissions allow bash(echo *)\r"],
      ["for this session", ""],
      ["›", "go\r"],
      ["DONE", ""],
      // a session allow answers asks; it never lifts a deny
      ["›", "/permissions allow bash(rm *)\r"],
      ["for this session", ""],
      ["›", "remove it\r"],
      ["DONE-TOO", ""],
      ["›", "/permissions\r"],
      ["/permissions allow", ""],
      ["›", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    assert.match(out.text, /ask\s+bash\(echo \*\)\s+← \S*\.harness\/floor\.json/);
    assert.doesNotMatch(out.text, /Allow\? \[o\]nce/);
    assert.match(out.text, /ran-42/);
    assert.match(JSON.stringify(t.server.requests[1].body), /ran-42/);
    assert.match(
      JSON.stringify(t.server.requests[3].body),
      /permission denied.*rule bash\(rm \*\)/,
    );
    assert.equal(Deno.readTextFileSync(join(t.w.ws, "keep.txt")), "kept\n");
    assert.match(out.text, /allow\s+bash\(echo \*\)\s+← this session \(\/permissions allow\)/);
  } finally {
    await t.close();
  }
});

Deno.test("REPL /init: the model gets the fixed instruction; its AGENTS.md write does not ask", async () => {
  const t = await loopbackWorkspace([
    {
      toolCalls: [{
        id: "w1",
        name: "write_file",
        input: { path: "AGENTS.md", content: "# Agents\nRun deno task check.\n" },
      }],
    },
    { text: "WROTE-AGENTS" },
  ]);
  try {
    const out = await runInPty(hs(), [
      ["›", "/init\r"],
      ["WROTE-AGENTS", ""],
      ["›", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    assert.doesNotMatch(out.text, /Allow\? \[o\]nce/);
    const first = JSON.stringify((t.server.requests[0].body as Body).messages);
    assert.match(first, /Write or update AGENTS\.md/);
    assert.equal(
      Deno.readTextFileSync(join(t.w.ws, "AGENTS.md")),
      "# Agents\nRun deno task check.\n",
    );
  } finally {
    await t.close();
  }
});

Deno.test("REPL @path: a link inside the workspace to a file outside is refused by the floor's worker", async () => {
  const t = await loopbackWorkspace([{ text: "NEVER-ASKED" }]);
  try {
    const outside = join(dirname(t.w.ws), "outside.txt");
    await writeFile(outside, "OUTSIDE-CONTENT-XYZ\n");
    await Deno.symlink(outside, join(t.w.ws, "link.txt"));
    const out = await runInPty(hs(), [
      ["›", "see @link.txt\r"],
      ["not sent", ""],
      ["›", "/quit\r"],
    ], { cwd: t.w.ws, env: { ...t.w.env, TERM: "dumb", HARNESS_NO_TRUST_PROMPT: "1" } });
    assert.equal(out.code, 0, out.text);
    // hs itself may read the target: only a read through the floor's worker refuses it
    assert.match(out.text, /@link\.txt: .*denied by the effect floor.*the real path of/);
    assert.equal(t.server.requests.length, 0);
  } finally {
    await t.close();
  }
});
