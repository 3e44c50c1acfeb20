import assert from "node:assert/strict";
import { writeFileTool } from "../../../plugins/core_tools/mod.ts";
import { makeCtx, run, withTempDir } from "./helpers.ts";

Deno.test("write_file: creates parents and answers with the UTF-8 byte count", async () => {
  await withTempDir(async (dir) => {
    const r = await run(writeFileTool, { path: "a/b/c.txt", content: "héllo\n" }, makeCtx(dir));
    assert.deepEqual(r, { text: `wrote 7 bytes to ${dir}/a/b/c.txt`, isError: false });
    assert.equal(await Deno.readTextFile(`${dir}/a/b/c.txt`), "héllo\n");
  });
});

Deno.test("write_file: overwrite keeps the mode and leaves no temp files", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/script.sh`;
    await Deno.writeTextFile(path, "old");
    await Deno.chmod(path, 0o751);
    const r = await run(writeFileTool, { path, content: "#!/bin/sh\necho new\n" }, makeCtx(dir));
    assert.equal(r.isError, false);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o751);
    assert.equal(await Deno.readTextFile(path), "#!/bin/sh\necho new\n");
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
    assert.deepEqual(names, ["script.sh"]);
  });
});

Deno.test("write_file: atomic replace (a reader never sees a partial file; new inode)", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/data.txt`;
    await Deno.writeTextFile(path, "A".repeat(100_000));
    const before = await Deno.stat(path);
    // An open handle on the old file still reads the complete old content.
    const old = await Deno.open(path);
    try {
      await run(writeFileTool, { path, content: "B".repeat(50_000) }, makeCtx(dir));
      const buf = new Uint8Array(200_000);
      let n = 0;
      for (;;) {
        const got = await old.read(buf.subarray(n));
        if (got === null) break;
        n += got;
      }
      assert.equal(n, 100_000);
      assert.ok(buf.subarray(0, n).every((b) => b === 0x41));
    } finally {
      old.close();
    }
    const after = await Deno.stat(path);
    assert.notEqual(after.ino, before.ino);
    assert.equal(await Deno.readTextFile(path), "B".repeat(50_000));
  });
});

Deno.test("write_file: writes through a symlink to its target", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/target.txt`, "old");
    await Deno.symlink(`${dir}/target.txt`, `${dir}/link.txt`);
    await run(writeFileTool, { path: "link.txt", content: "new" }, makeCtx(dir));
    assert.ok((await Deno.lstat(`${dir}/link.txt`)).isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/target.txt`), "new");
  });
});

Deno.test("write_file: hostile input gives clear errors and writes nothing", async () => {
  await withTempDir(async (dir) => {
    const ctx = makeCtx(`${dir}`);
    await Deno.mkdir(`${dir}/sub`);
    const cases: [unknown, RegExp][] = [
      [{}, /^error: path is required; content is required$/],
      [{ content: "hello" }, /^error: path is required$/],
      [{ path: null, content: "hello" }, /^error: path is required$/],
      [{ path: "x.txt" }, /^error: content is required$/],
      [{ path: "x.txt", content: 42 }, /^error: content must be a string$/],
      [{ path: "x.txt", content: ["a", "b"] }, /^error: content must be a string$/],
      [{ path: "x.txt", content: { a: 1 } }, /^error: content must be a string$/],
      [{ path: "x\0.txt", content: "a" }, /NUL byte/],
      [{ path: "sub", content: "a" }, /is a directory/],
    ];
    for (const [input, pattern] of cases) {
      const r = await run(writeFileTool, input, ctx);
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.text, pattern, JSON.stringify(input));
    }
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["sub"]);
    // `..` resolves like a shell path
    const r = await run(writeFileTool, { path: "sub/../up.txt", content: "x" }, ctx);
    assert.equal(r.text, `wrote 1 bytes to ${dir}/up.txt`);
  });
});
