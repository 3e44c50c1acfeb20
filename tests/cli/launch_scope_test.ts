/**
 * cli/launch/scope.ts on its own: the grant as a worker's permissions, and the round trip
 * of a harness worker — it holds only the grant, and its `Deno.exit` is the status the
 * main thread gets.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { clampToGrant, type Grant, runInWorker, workerPermissions } from "../../cli/launch/mod.ts";

const SCOPE = new URL("../../cli/launch/mod.ts", import.meta.url).href;
const SANDBOX = new URL("../../core/sandbox/mod.ts", import.meta.url).href;

Deno.test("the grant as worker permissions: lists stay lists, none is false, all is true", () => {
  const g: Grant = {
    read: ["/a", "/b"],
    write: [],
    net: "all",
    run: ["/usr/bin/bwrap"],
    notes: [],
  };
  assert.deepEqual(workerPermissions(g), {
    read: ["/a", "/b"],
    write: false,
    net: true,
    run: ["/usr/bin/bwrap"],
    env: true,
    sys: ["osRelease", "hostname", "homedir", "uid", "gid"],
    ffi: false,
    import: "inherit",
  });
});

Deno.test("a harness worker reads only the grant, and its Deno.exit is the status", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hs-scope-" });
  try {
    await Deno.mkdir(join(dir, "in"));
    await Deno.mkdir(join(dir, "out"));
    await Deno.writeTextFile(join(dir, "in", "a.txt"), "inside");
    await Deno.writeTextFile(join(dir, "out", "b.txt"), "outside");
    const entry = join(dir, "entry.ts");
    // the worker answers through its exit status: 10 + 1 if it read inside, + 2 if outside
    await Deno.writeTextFile(
      entry,
      `import { serveHarness } from ${JSON.stringify(SCOPE)};
const can = (p: string) => { try { Deno.readTextFileSync(p); return true; } catch { return false; } };
await serveHarness(() => new Promise(() => {
  setTimeout(() => Deno.exit(10 + (can(${JSON.stringify(join(dir, "in", "a.txt"))}) ? 1 : 0) +
    (can(${JSON.stringify(join(dir, "out", "b.txt"))}) ? 2 : 0)), 0);
}));
`,
    );
    const grant: Grant = { read: [join(dir, "in")], write: [], net: [], run: [], notes: [] };
    const url = new URL(`file://${entry}`);
    assert.equal(await runInWorker(url, grant), 11);
    const wide: Grant = { ...grant, read: "all" };
    assert.equal(await runInWorker(url, wide), 13, "the same worker with all of read");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a worker the harness asks the main thread for holds at most the grant", () => {
  const g: Grant = {
    read: ["/ws", "/home/u/.harness"],
    write: ["/ws"],
    net: [],
    run: [],
    notes: [],
  };
  const clamped = clampToGrant({
    read: true,
    write: ["/ws/sub", "/etc"],
    net: ["api.example.com:443"],
    env: false,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  }, g);
  assert.deepEqual(clamped, {
    read: ["/ws", "/home/u/.harness"],
    write: ["/ws/sub"],
    net: false,
    env: false,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  });
  // a path above the grant's is narrowed to the grant's; "inherit" is the grant's
  assert.deepEqual(
    clampToGrant({
      read: ["/"],
      write: "inherit",
      net: false,
      env: false,
      run: false,
      ffi: false,
      sys: false,
      import: false,
    }, g).read,
    ["/ws", "/home/u/.harness"],
  );
  const all: Grant = { read: "all", write: "all", net: "all", run: "all", notes: [] };
  assert.equal(clampToGrant({ ...workerNone(), read: "inherit" }, all).read, true);
});

function workerNone() {
  return {
    read: false,
    write: false,
    net: false,
    env: false,
    run: false,
    ffi: false,
    sys: false,
    import: false,
  } as const;
}

Deno.test("the harness worker's file worker is started by the main thread, under the grant", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hs-scope-" });
  try {
    await Deno.mkdir(join(dir, "in"));
    await Deno.mkdir(join(dir, "out"));
    await Deno.writeTextFile(join(dir, "in", "a.txt"), "inside");
    await Deno.writeTextFile(join(dir, "in", "prog"), "#!/bin/sh\n");
    await Deno.writeTextFile(join(dir, "out", "b.txt"), "outside");
    const entry = join(dir, "entry.ts");
    const p = (...s: string[]) => JSON.stringify(join(dir, ...s));
    // each answer is a bit of the exit status: hosted, read inside, read outside, wrote the program
    await Deno.writeTextFile(
      entry,
      `import { serveHarness } from ${JSON.stringify(SCOPE)};
import { openWorkerFs } from ${JSON.stringify(SANDBOX)};
await serveHarness(async () => {
  const hosted = typeof (globalThis as Record<symbol, unknown>)[Symbol.for("hs.workerHost")] === "object";
  const fs = openWorkerFs(
    { read: true, write: true, net: false, env: false, run: false, ffi: false, sys: false, import: false },
    { read: [], write: [] },
    (kind, path) => kind + " " + path,
  );
  const ok = async (f: () => Promise<unknown>) => { try { await f(); return true; } catch { return false; } };
  const inside = await ok(() => fs.readFile(${p("in", "a.txt")}));
  const outside = await ok(() => fs.readFile(${p("out", "b.txt")}));
  const wrote = await ok(() => fs.writeFileAtomic(${
        p("in", "prog")
      }, new TextEncoder().encode("x")));
  fs.close();
  return 32 + (hosted ? 1 : 0) + (inside ? 2 : 0) + (outside ? 4 : 0) + (wrote ? 8 : 0);
});
`,
    );
    const grant: Grant = {
      read: [join(dir, "in"), Deno.cwd()],
      write: [join(dir, "in")],
      net: [],
      run: [join(dir, "in", "prog")],
      notes: [],
    };
    assert.equal(await runInWorker(new URL(`file://${entry}`), grant), 32 + 1 + 2);
    assert.equal(await Deno.readTextFile(join(dir, "in", "prog")), "#!/bin/sh\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
