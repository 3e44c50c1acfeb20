import assert from "node:assert/strict";
import { readFileTool } from "../../../plugins/core_tools/mod.ts";
import { makeCtx, run, withTempDir } from "./helpers.ts";

Deno.test("read_file: whole file in N#HH:text format (reference output)", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/f.txt`, "alpha\nbeta\ngamma\n}\ndelta\n");
    const { text, isError } = await run(readFileTool, { path: "f.txt" }, makeCtx(dir));
    assert.equal(isError, false);
    assert.equal(text, "1#MX:alpha\n2#TP:beta\n3#YN:gamma\n4#YW:}\n5#NH:delta");
  });
});

Deno.test("read_file: offset, limit and both", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/s.txt`, "alpha\nbeta\ngamma\ndelta\nepsilon\n");
    const ctx = makeCtx(dir);
    const content = (t: string) => t.split("\n").map((l) => l.replace(/^[0-9]+#[A-Z]{2}:/, ""));
    let r = await run(readFileTool, { path: "s.txt", offset: 3 }, ctx);
    assert.deepEqual(content(r.text), ["gamma", "delta", "epsilon"]);
    assert.match(r.text, /^3#/);
    r = await run(readFileTool, { path: "s.txt", limit: 2 }, ctx);
    assert.deepEqual(content(r.text), ["alpha", "beta"]);
    r = await run(readFileTool, { path: "s.txt", offset: 2, limit: 2 }, ctx);
    assert.deepEqual(content(r.text), ["beta", "gamma"]);
    assert.match(r.text, /^2#TP:beta\n3#YN:gamma$/);
    r = await run(readFileTool, { path: "s.txt", offset: "4", limit: null }, ctx);
    assert.deepEqual(content(r.text), ["delta", "epsilon"]);
    r = await run(readFileTool, { path: "s.txt", offset: 99 }, ctx);
    assert.deepEqual(r, { text: "", isError: false });
  });
});

Deno.test("read_file: the read limit (HARNESS_READ_LIMIT, via settings) without offset/limit", async () => {
  await withTempDir(async (dir) => {
    const body = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    await Deno.writeTextFile(`${dir}/big.txt`, body);
    const ctx = makeCtx(dir, { settings: { readLimit: 50, toolTimeoutMs: 120_000 } });
    let r = await run(readFileTool, { path: "big.txt" }, ctx);
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      "error: file has 100 lines (limit: 50). Use offset/limit to read a section, or use a " +
        "subagent to search/summarize the full file.",
    );
    r = await run(readFileTool, { path: "big.txt", limit: 10 }, ctx);
    assert.equal(r.text.split("\n").length, 10);
    r = await run(readFileTool, { path: "big.txt", offset: 90 }, ctx);
    assert.match(r.text, /^90#[A-Z]{2}:line 90\n/);
    assert.equal(r.text.split("\n").length, 11);
    // default limit is 2000
    r = await run(readFileTool, { path: "big.txt" }, makeCtx(dir, { env: {} }));
    assert.equal(r.text.split("\n").length, 100);
    await Deno.writeTextFile(`${dir}/huge.txt`, "x\n".repeat(2001));
    r = await run(readFileTool, { path: "huge.txt" }, makeCtx(dir, { env: {} }));
    assert.match(r.text, /file has 2001 lines \(limit: 2000\)/);
  });
});

Deno.test("read_file: CRLF lines, no final newline, empty file", async () => {
  await withTempDir(async (dir) => {
    const ctx = makeCtx(dir);
    await Deno.writeTextFile(`${dir}/crlf.txt`, "foo\r\nbar");
    let r = await run(readFileTool, { path: "crlf.txt" }, ctx);
    assert.equal(r.text, "1#NK:foo\r\n2#XT:bar"); // from the reference awk
    await Deno.writeTextFile(`${dir}/empty.txt`, "");
    r = await run(readFileTool, { path: "empty.txt" }, ctx);
    assert.deepEqual(r, { text: "", isError: false });
  });
});

Deno.test("read_file: missing file, directory, binary file", async () => {
  await withTempDir(async (dir) => {
    const ctx = makeCtx(dir);
    let r = await run(readFileTool, { path: "nope.txt" }, ctx);
    assert.deepEqual(r, { text: `error: file not found: ${dir}/nope.txt`, isError: true });
    await Deno.mkdir(`${dir}/sub`);
    r = await run(readFileTool, { path: "sub" }, ctx);
    assert.equal(r.isError, true);
    assert.match(r.text, /^error: file not found: .*sub \(it is a directory\)$/);
    await Deno.writeFile(`${dir}/bin`, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    r = await run(readFileTool, { path: "bin" }, ctx);
    assert.equal(r.isError, true);
    assert.match(r.text, /binary file \(7 bytes\)/);
  });
});

Deno.test("read_file: hostile input gives clear errors", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/a`);
    await Deno.writeTextFile(`${dir}/top.txt`, "top\n");
    const ctx = makeCtx(`${dir}/a`);
    // `..` resolves against cwd like a shell would (absolute paths are allowed anyway)
    let r = await run(readFileTool, { path: "../top.txt" }, ctx);
    assert.match(r.text, /^1#[A-Z]{2}:top$/);
    r = await run(readFileTool, { path: "../../no/such/../file" }, ctx);
    assert.equal(r.isError, true);
    assert.match(r.text, /^error: file not found: \//);
    const cases: [unknown, RegExp][] = [
      [{ path: "x\0y" }, /NUL byte/],
      [{}, /^error: path is required$/],
      [{ path: null }, /^error: path is required$/],
      [{ path: "" }, /^error: path is required$/],
      [{ path: 42 }, /^error: path must be a string$/],
      [{ path: "top.txt", offset: "abc" }, /offset/],
      [{ path: "top.txt", limit: 1.5 }, /limit/],
      [{ path: "top.txt", limit: 0 }, /limit must be 1 or more/],
      ["just a string", /input must be a JSON object/],
      [null, /input must be a JSON object/],
    ];
    for (const [input, pattern] of cases) {
      const res = await run(readFileTool, input, ctx);
      assert.equal(res.isError, true, JSON.stringify(input));
      assert.match(res.text, pattern, JSON.stringify(input));
    }
  });
});
