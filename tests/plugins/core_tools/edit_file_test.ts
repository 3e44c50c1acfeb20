import assert from "node:assert/strict";
import { editFileTool, readFileTool } from "../../../plugins/core_tools/mod.ts";
import { anchorOf, makeCtx, run, withTempDir } from "./helpers.ts";

/** Writes `text` to `<dir>/name`, reads it back with read_file, returns [path, output]. */
async function prepare(dir: string, name: string, text: string): Promise<[string, string]> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, text);
  const { text: out } = await run(readFileTool, { path }, makeCtx(dir));
  return [path, out];
}

Deno.test("edit_file: multi-edit bottom-up matches the reference output exactly", async () => {
  await withTempDir(async (dir) => {
    const [path] = await prepare(dir, "f.txt", "alpha\nbeta\ngamma\n}\ndelta\n");
    const edits = [
      { type: "append_at", pos: "1#MX", content: ["one"] },
      { type: "replace_range", pos: "3#YN", end: "4#YW", content: "G\nH" },
      { type: "prepend_file", content: ["top"] },
      { type: "append_file", content: ["bottom"] },
      { type: "prepend_at", pos: "5#NH", content: ["5#AB:pre"] },
    ];
    const r = await run(editFileTool, { path: "f.txt", edits }, makeCtx(dir));
    assert.equal(r.isError, false);
    // Output of the reference edit_file for the same call (path substituted).
    assert.equal(
      r.text,
      [
        `edited ${path}:`,
        "  - appended to end of file",
        "  - prepended before line 5",
        "  - replaced lines 3-4",
        "  - appended after line 1",
        "  - prepended to start of file",
        "",
        "1#PN:top",
        "2#MX:alpha",
        "3#TS:one",
        "4#TP:beta",
        "5#YJ:G",
        "6#YB:H",
        "7#WJ:pre",
        "8#NH:delta",
        "9#ST:bottom",
      ].join("\n"),
    );
    assert.equal(
      await Deno.readTextFile(path),
      "top\nalpha\none\nbeta\nG\nH\npre\ndelta\nbottom\n",
    );
  });
});

Deno.test("edit_file: each edit type", async () => {
  await withTempDir(async (dir) => {
    const ctx = makeCtx(dir);
    const cases: [string, (read: string) => Record<string, unknown>, string][] = [
      ["aaa\nbbb\nccc\n", (o) => ({
        type: "replace_range",
        pos: anchorOf(o, 2),
        end: anchorOf(o, 2),
        content: ["XXX"],
      }), "aaa\nXXX\nccc\n"],
      ["l1\nl2\nl3\nl4\nl5\n", (o) => ({
        type: "replace_range",
        pos: anchorOf(o, 2),
        end: anchorOf(o, 4),
        content: ["N2", "N3"],
      }), "l1\nN2\nN3\nl5\n"],
      ["keep1\nremove\nkeep2\n", (o) => ({
        type: "replace_range",
        pos: anchorOf(o, 2),
        end: anchorOf(o, 2),
        content: null,
      }), "keep1\nkeep2\n"],
      ["first\nsecond\nthird\n", (o) => ({
        type: "append_at",
        pos: anchorOf(o, 2),
        content: ["inserted"],
      }), "first\nsecond\ninserted\nthird\n"],
      ["first\nsecond\nthird\n", (o) => ({
        type: "prepend_at",
        pos: anchorOf(o, 2),
        content: "inserted\n",
      }), "first\ninserted\nsecond\nthird\n"],
      ["existing\n", () => ({ type: "append_file", content: ["t1", "t2"] }), "existing\nt1\nt2\n"],
      ["existing", () => ({ type: "append_file", content: "tail" }), "existing\ntail\n"],
      ["existing\n", () => ({ type: "prepend_file", content: ["h1", "h2"] }), "h1\nh2\nexisting\n"],
      ["", () => ({ type: "append_file", content: ["only"] }), "only\n"],
      ["x\r\ny\r\n", (o) => ({
        type: "append_at",
        pos: anchorOf(o, 1),
        content: ["crlf"],
      }), "x\r\ncrlf\r\ny\r\n"],
      ["before\nPLACEHOLDER\nafter\n", (o) => ({
        type: "replace_range",
        pos: anchorOf(o, 2),
        end: anchorOf(o, 2),
        content: ["price $100 `echo` \\n 'q' \"dq\" | > &"],
      }), "before\nprice $100 `echo` \\n 'q' \"dq\" | > &\nafter\n"],
    ];
    for (const [i, [initial, edit, expected]] of cases.entries()) {
      const [path, read] = await prepare(dir, `case${i}.txt`, initial);
      const r = await run(editFileTool, { path, edits: [edit(read)] }, ctx);
      assert.equal(r.isError, false, `case ${i}: ${r.text}`);
      assert.equal(await Deno.readTextFile(path), expected, `case ${i}`);
    }
  });
});

Deno.test("edit_file: inserts at the same line keep the order of the edits array", async () => {
  await withTempDir(async (dir) => {
    const [path, read] = await prepare(dir, "o.txt", "a\nb\n");
    const pos = anchorOf(read, 1);
    const edits = [
      { type: "append_at", pos, content: ["1"] },
      { type: "append_at", pos, content: ["2"] },
      { type: "prepend_at", pos: anchorOf(read, 2), content: ["3"] },
      { type: "append_file", content: ["4"] },
      { type: "append_file", content: ["5"] },
    ];
    const r = await run(editFileTool, { path, edits }, makeCtx(dir));
    assert.equal(r.isError, false, r.text);
    assert.equal(await Deno.readTextFile(path), "a\n1\n2\n3\nb\n4\n5\n");
  });
});

Deno.test("edit_file: a stale anchor is rejected and the file is untouched", async () => {
  await withTempDir(async (dir) => {
    const [path, read] = await prepare(dir, "v.txt", "alpha\nbeta\ngamma\n");
    const before = await Deno.stat(path);
    const good = anchorOf(read, 1);
    const edits = [
      { type: "replace_range", pos: good, end: good, content: ["changed"] }, // valid
      { type: "replace_range", pos: "2#ZZ", end: "2#ZZ", content: ["x"] }, // stale
    ];
    const r = await run(editFileTool, { path, edits }, makeCtx(dir));
    assert.equal(r.isError, true);
    assert.ok(
      r.text.startsWith(
        "MISMATCH at line 2: expected ZZ, got TP\n    1#MX:alpha\n>>> 2#TP:beta\n    3#YN:gamma\n",
      ),
      r.text,
    );
    assert.match(r.text, /no edits were applied/);
    assert.match(r.text, /re-read it with read_file/);
    assert.equal(await Deno.readTextFile(path), "alpha\nbeta\ngamma\n");
    assert.equal((await Deno.stat(path)).mtime?.getTime(), before.mtime?.getTime());
  });
});

Deno.test("edit_file: anchors go stale after a change elsewhere shifts lines", async () => {
  await withTempDir(async (dir) => {
    const [path, read] = await prepare(dir, "s.txt", "a\nb\nc\n");
    const first = await run(editFileTool, {
      path,
      edits: [{ type: "prepend_file", content: ["new"] }],
    }, makeCtx(dir));
    assert.equal(first.isError, false);
    // line 2 is now "a": the old anchor of line 2 ("b") no longer matches
    const second = await run(editFileTool, {
      path,
      edits: [{
        type: "replace_range",
        pos: anchorOf(read, 2),
        end: anchorOf(read, 2),
        content: [],
      }],
    }, makeCtx(dir));
    assert.equal(second.isError, true);
    assert.match(second.text, /^MISMATCH at line 2/);
    assert.equal(await Deno.readTextFile(path), "new\na\nb\nc\n");
  });
});

Deno.test("edit_file: print-back only for files of at most 80 lines", async () => {
  await withTempDir(async (dir) => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
    let [path] = await prepare(dir, "small.txt", lines(79) + "\n");
    let r = await run(editFileTool, {
      path,
      edits: [{ type: "append_file", content: ["x"] }],
    }, makeCtx(dir));
    assert.match(r.text, /\n\n1#[A-Z]{2}:line 1\n/);
    assert.match(r.text, /\n80#[A-Z]{2}:x$/);
    [path] = await prepare(dir, "big.txt", lines(100) + "\n");
    r = await run(editFileTool, {
      path,
      edits: [{ type: "append_file", content: ["x"] }],
    }, makeCtx(dir));
    assert.equal(
      r.text,
      `edited ${path}:\n  - appended to end of file\n\n(101 lines — use read_file to view)`,
    );
  });
});

Deno.test("edit_file: deleting every line leaves an empty file", async () => {
  await withTempDir(async (dir) => {
    const [path, read] = await prepare(dir, "d.txt", "a\nb\n");
    const r = await run(editFileTool, {
      path,
      edits: [{
        type: "replace_range",
        pos: anchorOf(read, 1),
        end: anchorOf(read, 2),
        content: null,
      }],
    }, makeCtx(dir));
    assert.equal(r.text, `edited ${path}:\n  - replaced lines 1-2`);
    assert.equal(await Deno.readTextFile(path), "");
  });
});

Deno.test("edit_file: keeps the file mode", async () => {
  await withTempDir(async (dir) => {
    const [path] = await prepare(dir, "m.sh", "echo hi\n");
    await Deno.chmod(path, 0o700);
    await run(editFileTool, { path, edits: [{ type: "append_file", content: "x" }] }, makeCtx(dir));
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o700);
  });
});

Deno.test("edit_file: invalid edits give the reference's errors and change nothing", async () => {
  await withTempDir(async (dir) => {
    const [path, read] = await prepare(dir, "e.txt", "alpha\nbeta\ngamma\n");
    const a2 = anchorOf(read, 2);
    const a3 = anchorOf(read, 3);
    const cases: [unknown, RegExp][] = [
      [{ path, edits: [] }, /^error: no edits provided$/],
      [{ path: "missing.txt", edits: [] }, /^error: file not found: .*missing\.txt$/],
      [{ path, edits: [{ type: "bogus" }] }, /^error: unknown edit type 'bogus'$/],
      [
        { path, edits: [{ type: "replace_range", pos: a2, content: ["x"] }] },
        /^error: replace_range requires both pos and end anchors$/,
      ],
      [{ path, edits: [{ type: "append_at", content: ["x"] }] }, /^error: append_at requires pos/],
      [
        { path, edits: [{ type: "replace_range", pos: "2#ab", end: "2#ab", content: ["x"] }] },
        /^error: invalid pos anchor '2#ab' — expected LINE#HASH \(e\.g\. '5#ZM'\)$/,
      ],
      [
        { path, edits: [{ type: "replace_range", pos: "2ZZ", end: "2ZZ", content: ["x"] }] },
        /^error: invalid pos anchor/,
      ],
      [
        { path, edits: [{ type: "replace_range", pos: a2, end: "2#Z", content: ["x"] }] },
        /^error: invalid end anchor '2#Z'/,
      ],
      [
        { path, edits: [{ type: "replace_range", pos: "99#ZZ", end: "99#ZZ", content: ["x"] }] },
        /line 99 is out of range: the file has 3 lines[\s\S]*re-read/,
      ],
      [
        { path, edits: [{ type: "replace_range", pos: a3, end: a2, content: ["x"] }] },
        /^error: replace_range end line 2 is before pos line 3$/,
      ],
      [
        {
          path,
          edits: [
            { type: "replace_range", pos: a2, end: a3, content: ["x"] },
            { type: "append_at", pos: a2, content: ["y"] },
          ],
        },
        /^error: edits overlap: append_at at line 2 conflicts with replace_range 2-3/,
      ],
      [{ path, edits: [{ type: "append_file" }] }, /^error: append_file requires content/],
      [
        { path, edits: [{ type: "append_file", content: [1, 2] }] },
        /^error: edits\.0\.content: must be a list of strings, a string, or null$/,
      ],
      [{ path, edits: "nope" }, /^error: edits must be an array$/],
      [{ path: 5, edits: [] }, /^error: path must be a string$/],
      [{ edits: [] }, /^error: path is required$/],
      [{ path: "a\0b", edits: [] }, /NUL byte/],
    ];
    for (const [input, pattern] of cases) {
      const r = await run(editFileTool, input, makeCtx(dir));
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.text, pattern, JSON.stringify(input));
    }
    assert.equal(await Deno.readTextFile(path), "alpha\nbeta\ngamma\n");
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["e.txt"]);
  });
});
