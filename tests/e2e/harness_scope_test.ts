/**
 * The harness itself — not only its tools — holds just the run's grant, whichever entry
 * started it: `deno task hs`, or (scripts/bundle_e2e.sh, `HS_E2E_CMD`) the release bundle
 * under its broad baked flags, where the launcher runs the harness in a worker scoped to
 * the grant (cli/launch/scope.ts). A runtime plugin's code runs in the harness, so what it
 * can touch is what the harness can touch. Signals, exit codes and standard input reach
 * the harness in the worker as they reached the harness process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hsArgs, makeWorkspace, runHs, type Workspace, writeFile } from "../support/workspace.ts";

/** A runtime plugin (in `plugins.json`, outside the workspace) whose commands are `body`. */
async function withPlugin(w: Workspace, body: string): Promise<void> {
  const dir = join(w.root, "plugin-src");
  await writeFile(
    join(dir, "plugin.ts"),
    `export default {
  id: "prober",
  version: "1.0.0",
  apiVersion: 1,
  setup(ctx) {
${body}
  },
};
`,
  );
  await writeFile(
    join(w.home, "plugins.json"),
    JSON.stringify({ runtimePlugins: [{ id: "prober", module: join(dir, "plugin.ts") }] }),
  );
}

/** The plugin command `probe`: tries every effect outside the grant, one line each; exits 7. */
function probeCommand(secret: string, outside: string, port: number): string {
  return `
    const tries = {
      read: () => Deno.readTextFileSync(${JSON.stringify(secret)}),
      stat: () => String(Deno.statSync(${JSON.stringify(secret)}).size),
      write: () => { Deno.writeTextFileSync(${
    JSON.stringify(join(outside, "planted"))
  }, "x"); return "written"; },
      net: async () => await (await fetch("http://127.0.0.1:${port}/")).text(),
      run: () => new TextDecoder().decode(
        new Deno.Command("/bin/cat", { args: [${JSON.stringify(secret)}] }).outputSync().stdout),
      worker: () => {
        const url = URL.createObjectURL(new Blob(["self.close()"], { type: "application/javascript" }));
        new Worker(url, { type: "module", deno: { permissions: { read: true } } }).terminate();
        return "a worker with every read";
      },
      ask: async () => (await Deno.permissions.request({ name: "read", path: ${
    JSON.stringify(secret)
  } })).state,
    };
    ctx.commands.register({
      name: "probe",
      describe: "tries to reach outside the grant",
      run: async () => {
        for (const [name, fn] of Object.entries(tries)) {
          try {
            console.log(name + ": got " + await fn());
          } catch (e) {
            console.log(name + ": refused " + e.name);
          }
        }
        return 7;
      },
    });`;
}

Deno.test("the harness itself cannot read, write, reach, run or escalate outside the grant", async () => {
  const w = await makeWorkspace();
  const outside = await Deno.makeTempDir({ prefix: "hs-outside-" });
  const secret = join(outside, "secret.txt");
  await Deno.writeTextFile(secret, "the-outside-secret\n");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    return new Response("reached");
  });
  try {
    await withPlugin(w, probeCommand(secret, outside, server.addr.port));
    const r = await runHs(["probe"], { cwd: w.ws, env: w.env });
    assert.equal(r.code, 7, r.stdout + r.stderr);
    for (const name of ["read", "stat", "write", "net", "run", "worker"]) {
      assert.match(r.stdout, new RegExp(`^${name}: refused NotCapable$`, "m"), r.stdout);
    }
    assert.match(r.stdout, /^ask: got denied$/m, r.stdout);
    assert.doesNotMatch(r.stdout + r.stderr, /the-outside-secret|reached/);
    await assert.rejects(Deno.stat(join(outside, "planted")));
    // the grant is what decides: named on the command line, the same file is readable
    const granted = await runHs(["--allow-read", outside, "probe"], { cwd: w.ws, env: w.env });
    assert.equal(granted.code, 7, granted.stdout + granted.stderr);
    assert.match(granted.stdout, /^read: got the-outside-secret$/m, granted.stdout);
    assert.match(granted.stdout, /^write: refused NotCapable$/m, granted.stdout);
  } finally {
    await server.shutdown();
    await Deno.remove(outside, { recursive: true });
    await w.cleanup();
  }
});

Deno.test("standard input and the exit status reach the scoped harness", async () => {
  const w = await makeWorkspace();
  try {
    await withPlugin(
      w,
      `
    ctx.commands.register({
      name: "count",
      describe: "counts the lines of standard input",
      run: async () => {
        const text = await new Response(Deno.stdin.readable).text();
        const n = text.split("\\n").filter(Boolean).length;
        console.log("lines " + n + " terminal " + Deno.stdin.isTerminal());
        if (n === 3) Deno.exit(42);
        return 0;
      },
    });`,
    );
    const r = await runHs(["count"], { cwd: w.ws, env: w.env, stdin: "a\nb\nc\n" });
    assert.equal(r.stdout, "lines 3 terminal false\n", r.stderr);
    assert.equal(r.code, 42, "Deno.exit in the harness is the process's exit status");
  } finally {
    await w.cleanup();
  }
});

Deno.test("SIGTERM and SIGHUP end a running harness with 128 + the signal", async () => {
  const w = await makeWorkspace();
  try {
    await withPlugin(
      w,
      `
    ctx.commands.register({
      name: "wait",
      describe: "waits until stopped",
      run: () => { console.log("waiting"); return new Promise(() => setInterval(() => {}, 1000)); },
    });`,
    );
    for (const [sig, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
      const child = new Deno.Command(Deno.execPath(), {
        args: [...hsArgs(), "wait"],
        cwd: w.ws,
        env: w.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      while (!seen.includes("waiting\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value;
      }
      assert.equal(seen, "waiting\n");
      child.kill(sig);
      const [status, stderr] = await Promise.all([
        child.status,
        new Response(child.stderr).text(),
        reader.cancel(),
      ]);
      assert.equal(status.code, code, `${sig}: ${stderr}`);
    }
  } finally {
    await w.cleanup();
  }
});
