/**
 * cli/launch/scope.ts on its own: the grant as a worker's permissions, and the round trip
 * of a harness worker — it holds only the grant, and its `Deno.exit` is the status the
 * main thread gets.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Grant, runInWorker, workerPermissions } from "../../cli/launch/mod.ts";

const SCOPE = new URL("../../cli/launch/mod.ts", import.meta.url).href;

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
