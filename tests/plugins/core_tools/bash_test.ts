import assert from "node:assert/strict";
import { bashTool } from "../../../plugins/core_tools/mod.ts";
import { makeCtx, run, withTempDir } from "./helpers.ts";

/** True while `pid` exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

async function waitDead(pid: number, ms = 2000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

Deno.test("bash: combined stdout and stderr in order, cwd, trailing newlines trimmed", async () => {
  await withTempDir(async (dir) => {
    const r = await run(
      bashTool,
      { command: "echo out1; echo err1 >&2; echo out2; pwd; printf '\\n\\n'" },
      makeCtx(dir),
    );
    assert.deepEqual(r, { text: `out1\nerr1\nout2\n${dir}`, isError: false });
    const quiet = await run(bashTool, { command: "true" }, makeCtx(dir));
    assert.deepEqual(quiet, { text: "", isError: false });
    const stdin = await run(bashTool, { command: "cat; echo done" }, makeCtx(dir));
    assert.equal(stdin.text, "done");
  });
});

Deno.test("bash: non-zero exit codes are reported", async () => {
  await withTempDir(async (dir) => {
    let r = await run(bashTool, { command: "echo partial; exit 3" }, makeCtx(dir));
    assert.deepEqual(r, { text: "partial\n\nexit code: 3", isError: true });
    r = await run(bashTool, { command: "false" }, makeCtx(dir));
    assert.deepEqual(r, { text: "exit code: 1", isError: true });
    r = await run(bashTool, { command: "no_such_command_hs" }, makeCtx(dir));
    assert.equal(r.isError, true);
    assert.match(r.text, /no_such_command_hs: command not found\n\nexit code: 127$/);
  });
});

Deno.test("bash: the environment is exactly ctx.env (no leak of the process env)", async () => {
  await withTempDir(async (dir) => {
    Deno.env.set("HS_CORE_TOOLS_SECRET", "s3cr3t-value");
    try {
      const env = { HARNESS_CWD: dir, ONLY_THIS: "visible" };
      const r = await run(bashTool, { command: "env" }, makeCtx(dir, { env }));
      assert.equal(r.isError, false);
      assert.doesNotMatch(r.text, /s3cr3t-value|HS_CORE_TOOLS_SECRET/);
      assert.match(r.text, /^ONLY_THIS=visible$/m);
      assert.doesNotMatch(r.text, /^(HOME|USER|LANG|TERM)=/m);
      const withPath = await run(
        bashTool,
        { command: 'echo "$PATH|$HOME"' },
        makeCtx(dir, { env: { PATH: "/usr/bin:/bin", HOME: "/nowhere" } }),
      );
      assert.equal(withPath.text, "/usr/bin:/bin|/nowhere");
    } finally {
      Deno.env.delete("HS_CORE_TOOLS_SECRET");
    }
  });
});

Deno.test("bash: timeout kills the whole process group, grandchildren included", async () => {
  await withTempDir(async (dir) => {
    const started = Date.now();
    const r = await run(
      bashTool,
      {
        command: `sleep 100 & echo $! > ${dir}/bg.pid; (sleep 100; echo never) & sleep 30`,
        timeout: 1,
      },
      makeCtx(dir),
    );
    assert.ok(Date.now() - started < 4000, "returned promptly");
    assert.equal(r.isError, true);
    assert.match(r.text, /^error: command timed out after 1s \(its process group was killed\)$/);
    const pid = Number(await Deno.readTextFile(`${dir}/bg.pid`));
    assert.ok(await waitDead(pid), `background sleep ${pid} was killed`);
  });
});

Deno.test("bash: the tool timeout setting (HARNESS_TOOL_TIMEOUT) sets the default timeout", async () => {
  await withTempDir(async (dir) => {
    const started = Date.now();
    const env = { PATH: "/usr/bin:/bin" };
    const settings = { toolTimeoutMs: 1000, readLimit: 2000 };
    const r = await run(
      bashTool,
      { command: "echo before; sleep 20" },
      makeCtx(dir, { env, settings }),
    );
    assert.ok(Date.now() - started < 4000);
    assert.equal(
      r.text,
      "before\n\nerror: command timed out after 1s (its process group was killed)",
    );
    const fast = await run(bashTool, { command: "echo world" }, makeCtx(dir, { env, settings }));
    assert.equal(fast.text, "world");
  });
});

Deno.test("bash: background jobs do not outlive the call (and do not block it)", async () => {
  await withTempDir(async (dir) => {
    const started = Date.now();
    const r = await run(bashTool, { command: "sleep 100 & echo $!" }, makeCtx(dir));
    assert.ok(Date.now() - started < 1500, "did not wait for the background job");
    assert.equal(r.isError, false);
    assert.ok(await waitDead(Number(r.text)));
  });
});

Deno.test("bash: a process that left the group cannot hang the call", async () => {
  await withTempDir(async (dir) => {
    const started = Date.now();
    const r = await run(bashTool, { command: "setsid sleep 30 & echo $!" }, makeCtx(dir));
    const pid = Number(r.text);
    try {
      assert.ok(Date.now() - started < 5000);
      assert.equal(r.isError, false);
    } finally {
      if (alive(pid)) Deno.kill(pid, "SIGKILL");
      await waitDead(pid);
    }
  });
});

Deno.test("bash: aborting ctx.signal kills the group", async () => {
  await withTempDir(async (dir) => {
    const controller = new AbortController();
    const ctx = makeCtx(dir, { signal: controller.signal });
    const started = Date.now();
    const pending = run(
      bashTool,
      { command: `sleep 100 & echo $! > ${dir}/bg.pid; echo started; sleep 30` },
      ctx,
    );
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    const r = await pending;
    assert.ok(Date.now() - started < 3000);
    assert.equal(r.isError, true);
    assert.equal(r.text, "started\n\nerror: command aborted (its process group was killed)");
    assert.ok(await waitDead(Number(await Deno.readTextFile(`${dir}/bg.pid`))));
    // an already aborted signal runs nothing
    const again = await run(bashTool, { command: `touch ${dir}/ran` }, ctx);
    assert.equal(again.isError, true);
    await assert.rejects(Deno.stat(`${dir}/ran`));
  });
});

Deno.test("bash: huge output is truncated keeping head and tail", async () => {
  await withTempDir(async (dir) => {
    const r = await run(bashTool, { command: "seq 1 300000; echo END >&2" }, makeCtx(dir));
    assert.equal(r.isError, false);
    assert.ok(r.text.length < 110_000, `length ${r.text.length}`);
    assert.ok(r.text.startsWith("1\n2\n3\n"));
    assert.ok(r.text.endsWith("299999\n300000\nEND"));
    assert.match(r.text, /\[\.\.\. output truncated: \d+ bytes, 300001 lines in total;/);
    // many short lines under the byte cap: first 1000 and last 1000 lines
    const lines = await run(bashTool, { command: "seq 1 5000" }, makeCtx(dir));
    const shown = lines.text.split("\n");
    assert.equal(shown[0], "1");
    assert.equal(shown[999], "1000");
    assert.equal(shown.at(-1), "5000");
    assert.equal(shown.at(-1000), "4001");
    assert.match(lines.text, /showing the first 1000 and the last 1000 lines/);
    // one enormous line
    const wide = await run(
      bashTool,
      { command: "head -c 3000000 /dev/zero | tr '\\0' x" },
      makeCtx(dir),
    );
    assert.ok(wide.text.length < 110_000);
    assert.match(wide.text, /3000000 bytes/);
  });
});

Deno.test("bash: hostile input gives clear errors", async () => {
  await withTempDir(async (dir) => {
    const cases: [unknown, RegExp][] = [
      [{}, /^error: command is required$/],
      [{ command: null }, /^error: command is required$/],
      [{ command: ["ls"] }, /^error: command must be a string$/],
      [{ command: "echo a\0b" }, /NUL byte/],
      [{ command: "true", timeout: -1 }, /timeout must be a positive number/],
      [{ command: "true", timeout: "soon" }, /timeout: must be a number of seconds/],
      ["ls", /input must be a JSON object/],
    ];
    for (const [input, pattern] of cases) {
      const r = await run(bashTool, input, makeCtx(dir));
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.text, pattern, JSON.stringify(input));
    }
    const gone = await run(bashTool, { command: "true" }, makeCtx(`${dir}/missing`));
    assert.match(gone.text, /^error: working directory not found: /);
  });
});
