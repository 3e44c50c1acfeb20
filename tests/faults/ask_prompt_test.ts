/**
 * Fault injection: the floor's approval question quotes the command the model wants to run;
 * escape sequences in it (a clear-line and a carriage return that would hide what runs, a
 * title change) are shown as pictures, never performed, so the question shows what you
 * approve.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runInPty } from "../support/pty.ts";
import { hsArgs, loopbackWorkspace, writeFile } from "../support/workspace.ts";

const HIDING = 'echo ask "\x1b[2K\r\x1b]0;pwned\x07looks harmless"';

Deno.test("fault: the approval question shows the model's command with its escapes as pictures", async () => {
  const t = await loopbackWorkspace([
    { toolCalls: [{ id: "b1", name: "bash", input: { command: HIDING } }] },
    { text: "All done." },
  ]);
  try {
    await writeFile(
      join(t.w.ws, ".harness/floor.json"),
      JSON.stringify({ rules: { ask: ["bash(echo ask*)"] } }),
    );
    const r = await runInPty(
      [Deno.execPath(), ...hsArgs(), "repl"],
      [["›", "go\r"], ["[n]ever:", "n\r"], ["All done.", ""], ["›", "/quit\r"]],
      { cwd: t.w.ws, env: { ...t.w.env, HARNESS_NO_TRUST_PROMPT: "1", TERM: "dumb" } },
    );
    assert.equal(r.exit, 0, r.text);
    assert.ok(
      r.text.includes('run `echo ask "␛[2K␍␛]0;pwned␇looks harmless"`'),
      `the command is shown whole:\n${JSON.stringify(r.text)}`,
    );
    for (const seq of ["\x1b[2K", "\x1b]0;pwned"]) {
      assert.ok(!r.text.includes(seq), `${JSON.stringify(seq)} is not performed`);
    }
  } finally {
    await t.close();
  }
});
