/**
 * The file worker holds the policy intersected with the process: under a process that may run
 * a program inside its writable workspace (Deno then refuses writes to that program, and a
 * worker cannot carry the exception), the worker still starts, writes the rest of the
 * workspace, and cannot write the program.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fitToProcess, type WorkerPermissions } from "../../core/sandbox/mod.ts";
import { REPO } from "../support/workspace.ts";

const NONE: WorkerPermissions = {
  read: false,
  write: false,
  net: false,
  env: false,
  run: false,
  ffi: false,
  sys: false,
  import: false,
};

Deno.test("fitToProcess: a permission set that may start is kept as is", () => {
  const perms = { ...NONE, read: ["/a"], write: ["/a"] };
  assert.deepEqual(fitToProcess(perms, () => true), { perms, limits: {}, notes: [] });
});

Deno.test("fitToProcess: an item held only in part → inherit, the list enforced by the worker, a note", () => {
  const perms = { ...NONE, read: ["/ws"], write: ["/ws", "/other"] };
  const probe = (p: WorkerPermissions) => !(Array.isArray(p.write) && p.write.includes("/ws"));
  const fit = fitToProcess(perms, probe);
  assert.equal(fit.perms.write, "inherit");
  assert.deepEqual(fit.perms.read, ["/ws"]);
  assert.deepEqual(fit.limits, { write: ["/ws", "/other"] });
  assert.equal(fit.notes.length, 1);
  assert.match(fit.notes[0], /^write: the process holds \/ws only in part \(Deno never lets/);
});

Deno.test("the file worker under a process that may run a program in its workspace", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-fit-" });
  try {
    const ws = join(root, "ws");
    const cmd = join(ws, ".harness/commands/hello");
    await Deno.mkdir(join(ws, ".harness/commands"), { recursive: true });
    await Deno.writeTextFile(cmd, "#!/bin/sh\necho hi\n");
    await Deno.chmod(cmd, 0o755);
    const script = join(root, "probe.ts");
    await Deno.writeTextFile(
      script,
      `import { openWorkerFs } from ${JSON.stringify(join(REPO, "core/sandbox/mod.ts"))};
const ws = ${JSON.stringify(ws)};
const root = ${JSON.stringify(root)};
const fs = openWorkerFs(
  { read: [root], write: [ws], net: false, env: false, run: false, ffi: false, sys: false, import: false },
  { read: [], write: [] },
  (_k, _p, d) => "denied: " + d,
);
const out: Record<string, unknown> = { failure: fs.failure ?? null, narrowed: fs.narrowed };
await fs.writeFileAtomic(ws + "/new.txt", new TextEncoder().encode("new"));
out.wrote = Deno.readTextFileSync(ws + "/new.txt");
try { await fs.writeFileAtomic(${
        JSON.stringify(cmd)
      }, new TextEncoder().encode("pwned")); out.cmd = "written"; }
catch (e) { out.cmd = (e as Error).message; }
try { await fs.writeFileAtomic(${
        JSON.stringify(join(root, "outside.txt"))
      }, new TextEncoder().encode("x")); out.outside = "written"; }
catch (e) { out.outside = (e as Error).message; }
fs.close();
console.log(JSON.stringify(out));`,
    );
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-q",
        "--no-prompt",
        "--unstable-worker-options",
        "--config",
        join(REPO, "deno.json"),
        `--allow-read=${root},${REPO}`,
        // the process may write more than the policy: the worker inherits, the list still holds
        `--allow-write=${root}`,
        `--allow-run=${cmd}`,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(r.stderr);
    assert.equal(r.code, 0, stderr);
    const out = JSON.parse(new TextDecoder().decode(r.stdout));
    assert.equal(out.failure, null);
    assert.equal(out.wrote, "new");
    assert.match(out.cmd, /^denied: Requires write access/);
    assert.equal(await Deno.readTextFile(cmd), "#!/bin/sh\necho hi\n");
    assert.match(out.outside, /^denied: Requires write access/, JSON.stringify(out));
    assert.equal(await Deno.stat(join(root, "outside.txt")).catch(() => null), null);
    assert.equal(out.narrowed.length, 1);
    assert.match(out.narrowed[0], new RegExp(`write: the process holds ${ws} only in part`));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
