/**
 * Issue 12, item 3: one cap for every tool result. The session keeps the head
 * and the tail of a result over HARNESS_RESULT_LIMIT and saves the whole text
 * in `outputs/`; the spool that captures a child's output keeps memory bounded
 * and stops at the saved file's limit; hooks and providers that print too much
 * are stopped with a clear error.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  capText,
  NOTE_ROOM,
  outputFileName,
  OutputSpool,
  runExecutable,
  Session,
  unconfined,
} from "../../core/mod.ts";

async function withDir(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "hs-caps-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a tool result over the session's limit keeps head and tail; the whole text is saved", () =>
  withDir((root) => {
    const s = Session.create(root, { cwd: "/w", model: "m", provider: "p" });
    s.resultLimit = 10_000;
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n");
    s.appendToolResult("toolu/../x 1", "plugin_tool", false, big);
    const [m] = Session.open(s.dir).messages();
    assert.ok(m.role === "tool_result");
    assert.ok(m.text.length < 10_000 + NOTE_ROOM, `kept ${m.text.length}`);
    assert.ok(m.text.startsWith("line 0\nline 1\n"));
    assert.ok(m.text.endsWith("line 19999"));
    const file = join(s.dir, "outputs", "toolu_.._x_1.txt");
    assert.match(m.text, new RegExp(`The whole output is saved in ${file.replace(/\./g, "\\.")}`));
    assert.equal(Deno.readTextFileSync(file), big);
    // a second result of the same call id gets a file of its own
    s.appendToolResult("toolu/../x 1", "plugin_tool", false, big);
    assert.ok(Deno.statSync(join(s.dir, "outputs", "toolu_.._x_1-2.txt")).isFile);
    // a result within the limit is stored as it is
    s.appendToolResult("c", "t", false, "small");
    assert.equal(Session.open(s.dir).messages().at(-1)?.role === "tool_result" && "small", "small");
  }));

Deno.test("output file names are safe and never empty", () => {
  assert.equal(outputFileName("call_1"), "call_1");
  assert.equal(outputFileName(""), "call");
  for (const id of ["../../etc/passwd", "...", "..", "a\nb", "é"]) {
    const name = outputFileName(id);
    assert.match(name, /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, `${JSON.stringify(id)} → ${name}`);
  }
  assert.ok(outputFileName("x".repeat(500)).length <= 100);
});

Deno.test("capText leaves a text already capped by its producer alone", () => {
  const text = "a".repeat(1000 + NOTE_ROOM);
  assert.equal(capText(text, { maxBytes: 1000 }), text);
  assert.notEqual(capText(text + "b", { maxBytes: 1000 }), text + "b");
});

Deno.test("the spool holds head and tail only, saves everything, and says when its file is full", () =>
  withDir((dir) => {
    const spool = new OutputSpool({ maxBytes: 1000 }, {
      sessionDir: dir,
      callId: "c",
      maxBytes: 50_000,
    });
    const chunk = new TextEncoder().encode("0123456789\n".repeat(100));
    let pushes = 0;
    while (spool.push(chunk)) pushes++;
    assert.equal(pushes, 45, "the 46th chunk fills the file");
    assert.ok(spool.full);
    const text = spool.text();
    assert.ok(text.length < 1000 + NOTE_ROOM);
    assert.match(
      text,
      /The first 48\.8 KB of it are saved in \S+\/outputs\/c\.txt \(the command was stopped there\)/,
    );
    assert.equal(Deno.statSync(join(dir, "outputs", "c.txt")).size, 50_000);
  }));

Deno.test("runExecutable stops a child that prints past maxStdoutBytes and says so", () =>
  withDir(async (dir) => {
    const exe = join(dir, "flood");
    Deno.writeTextFileSync(exe, "#!/bin/sh\nyes\n", { mode: 0o755 });
    const r = await runExecutable(exe, {
      env: { PATH: "/usr/bin:/bin" },
      cwd: dir,
      timeoutMs: 30_000,
      sandbox: unconfined,
      maxStdoutBytes: 100_000,
    });
    assert.equal(r.overflow, true);
    assert.equal(r.timedOut, false);
    assert.ok(r.stdout.length <= 100_000);
  }));
