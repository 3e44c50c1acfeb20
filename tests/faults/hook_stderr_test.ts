/**
 * Fault injection: an interactive hook (a `tool_exec` approval gate on a terminal) prompts
 * through its stderr; the terminal shows its colours (SGR) but none of its other sequences —
 * a title change, a clear-screen, a cursor move, an 8-bit CSI, a bidi override are shown as
 * pictures. The log keeps the bytes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runInPty } from "../support/pty.ts";
import { hsArgs, loopbackWorkspace, writeExe } from "../support/workspace.ts";

const GATE = `#!/usr/bin/env bash
set -euo pipefail
tc="$(cat)"
printf '\\033[31mcareful\\033[0m \\033]0;pwned\\007\\033[2J\\033[3A\\302\\23331m\\342\\200\\256evil\\n' >&2
read -p "run it? [y/N] " -r reply < /dev/tty
[[ "$reply" =~ ^[Yy] ]] || exit 1
printf '%s\\n' "$tc"
`;

Deno.test("fault: an interactive hook's stderr keeps its colours; its other sequences are shown", async () => {
  const t = await loopbackWorkspace([
    { text: "Running.", toolCalls: [{ id: "b1", name: "bash", input: { command: "echo ran" } }] },
    { text: "All done." },
  ]);
  try {
    await writeExe(join(t.w.ws, ".harness/hooks.d/tool_exec/05-confirm"), GATE);
    const r = await runInPty(
      [Deno.execPath(), ...hsArgs(), "agent", "run", "it"],
      [["run it? [y/N] ", "y\r"]],
      { cwd: t.w.ws, env: t.w.env },
    );
    assert.equal(r.exit, 0, r.text);
    assert.match(r.text, /All done\./);
    assert.ok(r.text.includes("\x1b[31mcareful\x1b[0m"), "the colour is kept");
    assert.ok(
      r.text.includes("␛]0;pwned␇␛[2J␛[3A�31m<U+202E>evil"),
      `the other sequences are shown:\n${JSON.stringify(r.text)}`,
    );
    for (const seq of ["\x1b]0;pwned", "\x1b[2J", "\x1b[3A", "\x9b", "\u202e"]) {
      assert.ok(!r.text.includes(seq), `${JSON.stringify(seq)} is not performed`);
    }
  } finally {
    await t.close();
  }
});
