/**
 * Fault injection: hostile tools and hooks through `deno task hs` — floods,
 * hangs, garbage, exit codes. A tool's fault is the model's business (an error
 * result, the turn goes on); a hook's fault ends the turn with a clear error,
 * exit code 1 and the session intact.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import { loopbackWorkspace, runHs, writeExe } from "../support/workspace.ts";
import { assertSessionIntact, sessionDirOf } from "./_support.ts";

/** A `.harness/tools/<name>` executable whose `--exec` runs `body` (sh). */
function tool(name: string, body: string): string {
  return `#!/bin/sh
case "$1" in
  --schema) echo '{"name":"${name}","description":"hostile","input_schema":{"type":"object"}}' ;;
  --describe) echo hostile ;;
  --exec) ${body} ;;
esac
`;
}

/** Runs one turn where the model calls `call` then answers "done"; returns what is needed to check. */
async function toolTurn(
  files: Record<string, string>,
  call: { name: string; input?: unknown },
  env: Record<string, string> = {},
) {
  const script: ScriptedTurn[] = [
    { toolCalls: [{ id: "call_hostile", name: call.name, input: call.input ?? {} }] },
    { text: "done" },
  ];
  const t = await loopbackWorkspace(script);
  for (const [path, text] of Object.entries(files)) await writeExe(join(t.w.ws, path), text);
  const r = await runHs(["use", "the", "tool"], { cwd: t.w.ws, env: { ...t.w.env, ...env } });
  const dir = sessionDirOf(t, r);
  const msgs = assertSessionIntact(dir);
  const result = msgs.find((m) => m.role === "tool_result");
  assert.ok(result?.role === "tool_result", "the call has a result");
  const sent = t.server.requests[1]?.body as { messages: { content: unknown }[] } | undefined;
  return { t, r, dir, result, sent };
}

Deno.test("fault: an executable tool printing 100 MB — a capped result, the whole output beside the session", async () => {
  const { t, r, dir, result, sent } = await toolTurn({
    ".harness/tools/flood": tool(
      "flood",
      "head -c 100000000 /dev/zero | tr '\\0' x; echo; echo END",
    ),
  }, { name: "flood" });
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "done\n");
    assert.equal(result.error, false);
    assert.ok(result.text.length < 110_000, `kept ${result.text.length} bytes`);
    const file = join(dir, "outputs", "call_hostile.txt");
    assert.match(result.text, /\[\.\.\. output truncated: 100000005 bytes, 2 lines in total;/);
    assert.ok(
      result.text.includes(`The whole output is saved in ${file}`),
      result.text.slice(-400),
    );
    assert.ok(result.text.endsWith("END"));
    assert.equal(Deno.statSync(file).size, 100_000_005);
    // what the next request carries is the capped result, not 100 MB
    assert.ok(JSON.stringify(sent).length < 150_000, `request of ${JSON.stringify(sent).length}`);
  } finally {
    await t.close();
  }
});

Deno.test("fault: bash printing 20 MB — the same cap (HARNESS_RESULT_LIMIT) and the whole output saved", async () => {
  const { t, r, dir, result } = await toolTurn({}, {
    name: "bash",
    input: { command: "head -c 20000000 /dev/zero | tr '\\0' y; echo; echo END" },
  }, { HARNESS_RESULT_LIMIT: "20K" });
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.ok(result.text.length < 21_000, `kept ${result.text.length} bytes`);
    assert.match(result.text, /output truncated: 20000005 bytes/);
    assert.equal(Deno.statSync(join(dir, "outputs", "call_hostile.txt")).size, 20_000_005);
  } finally {
    await t.close();
  }
});

Deno.test("fault: tools printing forever are stopped at HARNESS_RESULT_FILE_LIMIT", async () => {
  for (const call of [{ name: "yes" }, { name: "bash", input: { command: "yes" } }]) {
    const { t, r, dir, result } = await toolTurn(
      { ".harness/tools/yes": tool("yes", "yes") },
      call,
      {
        HARNESS_RESULT_FILE_LIMIT: "2M",
      },
    );
    try {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(result.error, true);
      assert.match(
        result.text,
        /(printed more than 2\.0 MB|more than HARNESS_RESULT_FILE_LIMIT allows)/,
      );
      assert.match(result.text, /The first 2\.0 MB of it are saved in \S+call_hostile\.txt/);
      assert.equal(Deno.statSync(join(dir, "outputs", "call_hostile.txt")).size, 2 * 1024 * 1024);
    } finally {
      await t.close();
    }
  }
});

Deno.test("fault: a tool that hangs is stopped at HARNESS_EXEC_TIMEOUT and the turn goes on", async () => {
  const { t, r, result } = await toolTurn({ ".harness/tools/hang": tool("hang", "sleep 60") }, {
    name: "hang",
  }, { HARNESS_EXEC_TIMEOUT: "1" });
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(result.error, true);
    assert.match(
      result.text,
      /error: tool 'hang' timed out after 1 s \(its process group was killed\)/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("fault: a tool printing binary garbage and escapes gives a readable result", async () => {
  const { t, r, result, sent } = await toolTurn({
    ".harness/tools/garbage": tool(
      "garbage",
      "printf '\\377\\376\\000\\033]0;pwned\\007\\033[2J\\200\\201ok'",
    ),
  }, { name: "garbage" });
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(result.error, false);
    assert.ok(result.text.includes("\u001b]0;pwned\u0007"), "the stored result keeps the bytes");
    assert.ok(result.text.endsWith("ok"));
    assert.ok(sent, "the next request was sent");
  } finally {
    await t.close();
  }
});

Deno.test("fault: a tool exiting 3 with a message on stderr is an error result with that message", async () => {
  const { t, r, result } = await toolTurn({
    ".harness/tools/fails": tool("fails", "echo partial; echo 'boom: disk full' >&2; exit 3"),
  }, { name: "fails" });
  try {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(result.error, true);
    assert.match(result.text, /^partial\n+\[stderr\] boom: disk full/);
  } finally {
    await t.close();
  }
});

Deno.test("fault: a tool whose --schema floods is left out and reported", async () => {
  const t = await loopbackWorkspace([]);
  try {
    await writeExe(join(t.w.ws, ".harness/tools/noisy"), "#!/bin/sh\nyes\n");
    const r = await runHs(["tools"], { cwd: t.w.ws, env: t.w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /noisy.*`--schema` printed more than 1\.0 MB/s);
  } finally {
    await t.close();
  }
});

interface HookCase {
  name: string;
  body: string;
  env: Record<string, string>;
  stderr: RegExp;
}

const HOOKS: HookCase[] = [
  {
    name: "a hook that hangs",
    body: "exec sleep 60",
    env: { HARNESS_HOOK_TIMEOUT: "1" },
    stderr: /hook \S+05-hostile timed out after 1 s during assemble \(its process group was killed/,
  },
  {
    name: "a hook flooding stdout",
    body: "cat >/dev/null; yes",
    env: { HARNESS_HOOK_OUTPUT_LIMIT: "1M" },
    stderr:
      /hook \S+05-hostile printed more than 1\.0 MB on stdout during assemble \(it was stopped/,
  },
  {
    name: "a hook printing garbage",
    body: "cat >/dev/null; printf 'not json \\033[2J'",
    env: {},
    stderr:
      /hook \S+05-hostile printed something that is not a JSON object: "not json \\u001b\[2J" during assemble/,
  },
  {
    name: "a hook exiting 2",
    body: "cat >/dev/null; echo 'broken on purpose' >&2; exit 2",
    env: {},
    stderr: /hook \S+05-hostile exited 2 during assemble: broken on purpose/,
  },
];

for (const c of HOOKS) {
  Deno.test(`fault: ${c.name} — a clear error, exit 1, the session intact and resumable`, async () => {
    const t = await loopbackWorkspace([{ text: "resumed fine" }]);
    try {
      const hook = join(t.w.ws, ".harness/hooks.d/assemble/05-hostile");
      await writeExe(hook, `#!/bin/sh\n${c.body}\n`);
      const env = { ...t.w.env, ...c.env };
      const r = await runHs(["first", "question"], { cwd: t.w.ws, env });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, c.stderr);
      assert.match(r.stderr, /hint: the session is kept and can be resumed/);
      assert.equal(t.server.requests.length, 0);
      const dir = sessionDirOf(t, r);
      assert.deepEqual(assertSessionIntact(dir).map((m) => m.role), ["user"]);
      await Deno.remove(hook);
      const again = await runHs([dir.split("/").pop()!, "again"], { cwd: t.w.ws, env });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, "resumed fine\n");
    } finally {
      await t.close();
    }
  });
}
