/**
 * Item 1: every sandboxed child has a private writable `/tmp` (its `TMPDIR`), removed
 * afterwards. A tool and a hook that call `mktemp` (like the reference `edit_file` and
 * `send/10-send`) work through `deno task hs`; what they leave in `/tmp` is gone.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bwrapArgs, tmpAncestors } from "../../core/sandbox/mod.ts";
import { BWRAP_OK, loopbackWorkspace, runHs } from "../support/workspace.ts";
import { install, MKTEMP_HOOK, MKTEMP_TOOL } from "./kit.ts";

const LEAVE_TMP = `#!/usr/bin/env bash
case "\${1:-}" in
  --schema) echo '{"name":"leave_tmp","description":"makes a temp file and leaves it","input_schema":{"type":"object"}}' ;;
  --exec) cat >/dev/null; f="$(mktemp)"; echo kept > "$f"; echo "$f" ;;
esac
`;

Deno.test("mktemp works in sandboxed tools and hooks; their /tmp is private and removed", async () => {
  const t = await loopbackWorkspace([
    {
      text: "Appending.",
      toolCalls: [
        { id: "t1", name: "append_line", input: { path: "notes.txt", line: "hello" } },
        { id: "t2", name: "leave_tmp", input: {} },
      ],
    },
    { text: "Done." },
  ]);
  try {
    const record = join(t.w.ws, "hook-tmp.txt");
    await install(join(t.w.ws, ".harness"), {
      "tools/append_line": MKTEMP_TOOL,
      "tools/leave_tmp": LEAVE_TMP,
      "hooks.d/receive/20-errfile": MKTEMP_HOOK(record),
    });
    const r = await runHs(["--json", "append", "hello"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).output, "Done.");
    assert.equal(Deno.readTextFileSync(join(t.w.ws, "notes.txt")), "hello\n");
    // the tool results went back to the model
    const results = (t.server.requests[1].body as { messages: { content: unknown }[] }).messages
      .at(-1)!.content as { content: string; is_error?: boolean }[];
    assert.equal(results.length, 2);
    assert.ok(!results[0].is_error, results[0].content);
    assert.match(results[0].content, /^appended to .*notes\.txt via \S+/);
    // the hook ran twice (two receive stages) with a temp file each
    assert.equal(Deno.readTextFileSync(record).trim().split("\n").length, 2);
    if (BWRAP_OK) {
      assert.match(results[0].content, /TMPDIR=\/tmp\)$/);
      const left = results[1].content.trim();
      assert.match(left, /^\/tmp\//);
      assert.throws(() => Deno.statSync(left), "the sandbox's /tmp is gone with it");
    }
  } finally {
    await t.close();
  }
});

Deno.test("bwrap arguments: a private /tmp first, the host's /tmp parents of binds read-only", () => {
  const policy = {
    read: ["/tmp/hs-x/ws", "/home/u/.harness"],
    write: ["/tmp/hs-x/ws"],
    net: [],
    run: "all" as const,
    env: [],
    deny: { read: [], write: [], net: [], run: [], env: [] },
  };
  assert.deepEqual(tmpAncestors(["/tmp/hs-x/ws", "/tmp/top", "/home/u", "/tmp/hs-x/y/z"]), [
    "/tmp/hs-x",
  ]);
  const a = bwrapArgs(policy, { readOnly: [], writable: [], cwd: "/tmp/hs-x/ws" });
  const at = (...xs: string[]) => a.findIndex((_, i) => xs.every((x, j) => a[i + j] === x));
  assert.ok(at("--tmpfs", "/tmp") >= 0);
  assert.ok(at("--tmpfs", "/tmp") < at("--tmpfs", "/tmp/hs-x"));
  assert.ok(at("--remount-ro", "/tmp/hs-x") > at("--bind-try", "/tmp/hs-x/ws", "/tmp/hs-x/ws"));
  // write: all binds the host's root writable: no read-only /tmp parents to remount
  const all = bwrapArgs({ ...policy, write: "all" }, { readOnly: [], writable: [], cwd: "/" });
  assert.ok(!all.includes("/tmp/hs-x"));
});
