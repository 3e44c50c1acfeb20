/**
 * Runs a command in a pseudo-terminal of a given size (python3's pty module)
 * through a list of steps — wait for a text, then type something — and returns
 * every byte the terminal received. A minimal copy of the test suite's driver,
 * plus the window size and a raw capture.
 *
 * @module
 */

const DRIVER = `
import os, pty, sys, time, select, json, fcntl, termios, struct
args, steps, cols, rows, out = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.execvp(args[0], args)
seen = b""
buf = b""
def pump(timeout):
    global buf, seen
    r, _, _ = select.select([fd], [], [], timeout)
    if not r: return False
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        return None
    if not chunk: return None
    buf += chunk; seen += chunk
    return True
def expect(pat, timeout=60):
    global buf
    end = time.time() + timeout
    while pat.encode() not in buf:
        got = pump(max(0, end - time.time()))
        if got is False:
            sys.stderr.write("TIMEOUT waiting for " + pat + "\\n"); os.kill(pid, 9); sys.exit(3)
        if got is None: break
    if pat.encode() in buf:
        buf = buf[buf.index(pat.encode()) + len(pat):]
for pat, send in steps:
    expect(pat)
    if send: os.write(fd, send.encode())
while pump(5): pass
_, status = os.waitpid(pid, 0)
open(out, "wb").write(seen)
print(os.waitstatus_to_exitcode(status))
`;

/** What a pty run returns. */
export interface PtyCapture {
  /** The command's exit code (3 from the driver when an expected text never came). */
  code: number;
  /** Every byte written to the terminal, escape sequences included. */
  bytes: Uint8Array;
  /** The driver's diagnostics. */
  stderr: string;
}

/** Runs `argv` in a `cols`×`rows` pty; each step waits for its text (60 s at most), then types. */
export async function capturePty(
  argv: string[],
  steps: [expect: string, send: string][],
  opts: { cwd: string; env: Record<string, string>; cols: number; rows: number },
): Promise<PtyCapture> {
  const file = await Deno.makeTempFile({ prefix: "hs-pty-" });
  try {
    const out = await new Deno.Command("python3", {
      args: ["-c", DRIVER, JSON.stringify([argv, steps, opts.cols, opts.rows, file])],
      cwd: opts.cwd,
      env: opts.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    const code = out.success ? Number(dec.decode(out.stdout).trim()) : out.code;
    const bytes = await Deno.readFile(file).catch(() => new Uint8Array());
    return { code, bytes, stderr: dec.decode(out.stderr) };
  } finally {
    await Deno.remove(file);
  }
}
