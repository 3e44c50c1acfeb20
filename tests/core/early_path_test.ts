/**
 * core/early/path.ts gives what `node:path` gives, for the paths the entries build (absolute
 * paths, names, `..`, repeated and trailing slashes) — it replaces it where loading the Node
 * layer would cost more than the answer.
 */
import assert from "node:assert/strict";
import * as node from "node:path";
import { dirname, isAbsolute, join, normalize, resolveFrom } from "../../core/early/path.ts";

const PATHS = [
  "/",
  "//",
  "/a",
  "/a/",
  "/a//b",
  "/a/b/../c",
  "/a/./b/.",
  "/../a",
  "a",
  "a/b",
  "a/../..",
  "./a",
  "",
  ".",
  "..",
  "/a/b///",
  ".harness",
  "/work/ws/.harness/plugins/p/commands/version",
];

Deno.test("normalize, dirname and isAbsolute are node:path's", () => {
  for (const p of PATHS) {
    assert.equal(normalize(p), node.posix.normalize(p), `normalize(${JSON.stringify(p)})`);
    assert.equal(dirname(p), node.posix.dirname(p), `dirname(${JSON.stringify(p)})`);
    assert.equal(isAbsolute(p), node.posix.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
  }
});

Deno.test("join is node:path's", () => {
  for (const a of PATHS) {
    for (const b of ["commands", "../x", "", "/abs", "a/b/", "."]) {
      assert.equal(join(a, b), node.posix.join(a, b), `join(${JSON.stringify(a)}, "${b}")`);
    }
  }
  assert.equal(join(), node.posix.join());
  assert.equal(
    join("/h", ".harness", "plugins", "p"),
    node.posix.join("/h", ".harness", "plugins", "p"),
  );
});

Deno.test("resolveFrom is node:path's resolve from an absolute base", () => {
  for (const base of ["/", "/a/b", "/a/b/", "/repo/.git/worktrees/w"]) {
    for (const p of ["x", "../x", "/abs/p/", "../../..", ".", "", "a/./b//"]) {
      assert.equal(resolveFrom(base, p), node.posix.resolve(base, p), `${base} + ${p}`);
    }
  }
});

Deno.test("basename, resolve and fileUrlOf are node:path's and node:url's", async () => {
  const { pathToFileURL } = await import("node:url");
  const { basename, fileUrlOf, resolve } = await import("../../core/early/path.ts");
  for (const p of PATHS) {
    assert.equal(basename(p), node.posix.basename(p), `basename(${JSON.stringify(p)})`);
    assert.equal(resolve(p), node.posix.resolve(p), `resolve(${JSON.stringify(p)})`);
    assert.equal(resolve("/base", p), node.posix.resolve("/base", p));
    assert.equal(resolve(p, "x", "/abs", "y"), node.posix.resolve(p, "x", "/abs", "y"));
  }
  for (
    const p of ["/a b/c#d?e", "/x/100%/y", "/tab\there", "/ü/日本", "/a/\\b", "/plain/path.ts"]
  ) {
    assert.equal(fileUrlOf(p).href, pathToFileURL(p).href, p);
  }
});

Deno.test("relative is node:path's", async () => {
  const { relative } = await import("../../core/early/path.ts");
  const more = [...PATHS, "/a/b/c", "/a/bc", "/x/y", "a/b/c", "../up"];
  for (const from of more) {
    for (const to of more) {
      assert.equal(
        relative(from, to),
        node.posix.relative(from, to),
        `relative(${JSON.stringify(from)}, ${JSON.stringify(to)})`,
      );
    }
  }
});
