/**
 * End-to-end: the REPL on a pseudo-terminal — streamed answer and tool call,
 * /session, Ctrl-C cancelling a running turn (session kept consistent), /quit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, loopbackWorkspace } from "../support/workspace.ts";

/** Drives a command in a pty: a list of [expect, send] steps; prints the transcript. */
const DRIVER = `
import os, pty, sys, time, select, json
args = json.loads(sys.argv[1]); steps = json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(args[0], args)
seen = b""
buf = b""
def expect(pat, timeout=60):
    global buf, seen
    end = time.time() + timeout
    while pat.encode() not in buf:
        r, _, _ = select.select([fd], [], [], max(0, end - time.time()))
        if not r:
            sys.stdout.write(seen.decode(errors="replace")); print("\\nTIMEOUT waiting for " + pat); sys.exit(3)
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk: break
        buf += chunk; seen += chunk
    i = buf.index(pat.encode()) + len(pat)
    buf = buf[i:]
for pat, send in steps:
    expect(pat)
    if send: os.write(fd, send.encode())
_, status = os.waitpid(pid, 0)
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk: break
    seen += chunk
sys.stdout.write(seen.decode(errors="replace"))
print("\\nEXIT", os.waitstatus_to_exitcode(status))
`;

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
    const steps = [
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
    const out = await new Deno.Command("python3", {
      args: ["-c", DRIVER, JSON.stringify([cmd, ...args]), JSON.stringify(steps)],
      cwd: t.w.ws,
      env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
    assert.match(text, /● bash echo hi from bash/);
    assert.match(text, /✓ hi from bash/);
    assert.match(text, /EXIT 0/);
    // the cancelled answer was not saved; the session went on consistently
    const sessions = [...Deno.readDirSync(join(t.w.home, "sessions"))].map((e) => e.name);
    assert.equal(sessions.length, 1);
    const dir = join(t.w.home, "sessions", sessions[0], "messages");
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
