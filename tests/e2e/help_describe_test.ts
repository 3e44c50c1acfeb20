/**
 * `hs help` asks an executable command `--describe` once per version of its file: the line is
 * kept under $HARNESS_HOME keyed by the file's path, mtime, size and inode. The command prints a
 * fresh stamp each time it is asked, so a repeated line proves it was not run again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeWorkspace, runHs, writeExe } from "../support/workspace.ts";

const STAMPER = (extra: string) =>
  `#!/bin/sh\n[ "$1" = --describe ] && { echo "stamp $(date +%s%N)"; exit 0; }\necho ran${extra}\n`;

function stampOf(helpText: string): string {
  const m = /stamper\s+(stamp \d+)/.exec(helpText) ?? /hs stamper — (stamp \d+)/.exec(helpText);
  assert.ok(m, `no stamp in:\n${helpText}`);
  return m[1];
}

Deno.test("hs help runs --describe again only when the executable changed", async () => {
  const w = await makeWorkspace();
  try {
    const exe = join(w.ws, ".harness/commands/stamper");
    await writeExe(exe, STAMPER(""));
    const first = await runHs(["help"], { cwd: w.ws, env: w.env });
    assert.equal(first.code, 0, first.stderr);
    const again = await runHs(["help"], { cwd: w.ws, env: w.env });
    assert.equal(stampOf(again.stdout), stampOf(first.stdout));
    const named = await runHs(["help", "stamper"], { cwd: w.ws, env: w.env });
    assert.equal(stampOf(named.stdout), stampOf(first.stdout));
    await writeExe(exe, STAMPER(" changed"));
    const changed = await runHs(["help"], { cwd: w.ws, env: w.env });
    assert.notEqual(stampOf(changed.stdout), stampOf(first.stdout));
  } finally {
    await w.cleanup();
  }
});
