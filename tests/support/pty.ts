/**
 * Test support: drives a command in a pseudo-terminal (python3's pty) through
 * a list of steps — wait for a text, then type something.
 *
 * @module
 */

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
            chunk = b""
        if not chunk:
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(seen.decode(errors="replace"))
            print("\\nEOF waiting for " + pat + " (EXIT " + str(os.waitstatus_to_exitcode(status)) + ")")
            sys.exit(4)
        buf += chunk; seen += chunk
    i = buf.index(pat.encode()) + len(pat)
    buf = buf[i:]
for pat, send in steps:
    if pat: expect(pat)
    if send.startswith("WAIT:"): time.sleep(int(send[5:]) / 1000)
    elif send: os.write(fd, send.encode())
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

/**
 * Runs `argv` in a pty; each step waits for its text (60 s at most; "" waits for nothing),
 * then sends its input (`WAIT:<ms>` sleeps instead).
 */
export async function runInPty(
  argv: string[],
  steps: [expect: string, send: string][],
  opts: { cwd: string; env: Record<string, string> },
): Promise<{ code: number; text: string; exit?: number }> {
  const out = await new Deno.Command("python3", {
    args: ["-c", DRIVER, JSON.stringify(argv), JSON.stringify(steps)],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const exit = /\nEXIT (-?\d+)\n?$/.exec(text.trimEnd() + "\n");
  return { code: out.code, text, exit: exit ? Number(exit[1]) : undefined };
}
