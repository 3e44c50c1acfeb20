/**
 * `ask` rules: headless runs deny (or approve with `--yes`); the REPL prompts
 * on its terminal (driven through a pseudo-terminal) and remembers "always"
 * for the session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startScriptedServer } from "../../plugins/scripted/mod.ts";
import { hsArgs, loopbackConf, writeFile } from "../support/workspace.ts";
import { makeRig, runCalls } from "./_helpers.ts";

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

/** Drives `hs repl` in a pseudo-terminal: send a message, answer prompts, quit. */
const DRIVER = `
import os, pty, sys, time, select, json
args = json.loads(sys.argv[1]); answers = json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(args[0], args)
buf = b""
def expect(pat, timeout=60):
    global buf
    end = time.time() + timeout
    while pat.encode() not in buf:
        r, _, _ = select.select([fd], [], [], max(0, end - time.time()))
        if not r:
            sys.stdout.write(buf.decode(errors="replace")); sys.exit(3)
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk: break
        buf += chunk
    i = buf.index(pat.encode()) + len(pat)
    buf = buf[i:]
expect("›")
os.write(fd, b"go\\r")
prompts = 0
for a in answers:
    expect("[n]ever:")
    prompts += 1
    os.write(fd, (a + "\\r").encode())
expect("ALL-DONE")
expect("›")
os.write(fd, b"/quit\\r")
time.sleep(0.3)
try:
    os.kill(pid, 9)
except ProcessLookupError:
    pass
print("PROMPTS", prompts)
`;

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
      const out = await new Deno.Command("python3", {
        args: ["-c", DRIVER, JSON.stringify(hs), JSON.stringify(["a", "n"])],
        cwd: rig.w.ws,
        env: { ...rig.w.env, HARNESS_NO_TRUST_PROMPT: "1", TERM: "dumb" },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
      assert.match(text, /PROMPTS 2/);
      const sessions = join(rig.w.home, "sessions");
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
