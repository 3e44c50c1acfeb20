/**
 * End-to-end: the REPL on a pseudo-terminal — streamed answer and tool call,
 * /session, Ctrl-C cancelling a running turn (session kept consistent), /quit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, loopbackWorkspace, sessionsOf } from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";

Deno.test("the REPL streams answers and tool calls, cancels a turn with Ctrl-C, and quits", async () => {
  const t = await loopbackWorkspace([
    {
      text: "Running it.",
      toolCalls: [{ id: "toolu_r", name: "bash", input: { command: "echo hi from bash" } }],
    },
    { text: "The command printed hi." },
    { text: "slow ".repeat(400), chunkSize: 5, delayMs: 25 },
    { text: "after the cancel" },
  ]);
  try {
    const cmd = Deno.execPath();
    const args = [...hsArgs(), "repl"];
    const steps: [string, string][] = [
      ["›", "say hello\r"],
      ["The command printed hi.", ""],
      ["›", "tell me a long story\r"],
      ["slow slow slow", "\x03"],
      ["cancelled", ""],
      ["›", "again\r"],
      ["after the cancel", ""],
      ["›", "/session\r"],
      ["sessions/", ""],
      ["›", "/quit\r"],
    ];
    const out = await runInPty([cmd, ...args], steps, {
      cwd: t.w.ws,
      env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" },
    });
    const text = out.text;
    assert.equal(out.code, 0, text);
    assert.match(text, /● bash echo hi from bash/);
    assert.match(text, /✓ hi from bash/);
    assert.match(text, /EXIT 0/);
    // the cancelled answer was not saved; the session went on consistently
    const sessions = [...Deno.readDirSync(sessionsOf(t.w))].map((e) => e.name);
    assert.equal(sessions.length, 1);
    const dir = join(sessionsOf(t.w), sessions[0], "messages");
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, [
      "0001-user.md",
      "0002-assistant.md",
      "0003-tool_result.md",
      "0004-assistant.md",
      "0005-user.md",
      "0006-user.md",
      "0007-assistant.md",
    ]);
    assert.match(Deno.readTextFileSync(join(dir, "0007-assistant.md")), /after the cancel/);
  } finally {
    await t.close();
  }
});
