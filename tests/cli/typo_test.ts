/** The typo rule of cli/launch/typo.ts, over its inputs. */
import assert from "node:assert/strict";
import { editDistance, nearestCommand, typoError } from "../../cli/launch/mod.ts";

const KNOWN = [
  { name: "tools", subcommands: [] },
  { name: "session", subcommands: ["list", "show", "dir"] },
  { name: "help", subcommands: [] },
  { name: "trust", subcommands: [] },
  { name: "web", subcommands: [] },
  { name: "version", subcommands: [] },
];

Deno.test("edit distance counts a transposition as one", () => {
  assert.equal(editDistance("verison", "version"), 1);
  assert.equal(editDistance("tols", "tools"), 1);
  assert.equal(editDistance("hello", "help"), 2);
});

Deno.test("a short name takes one edit, a longer one two; other words and real prompts pass", () => {
  const names = KNOWN.map((k) => k.name);
  assert.equal(nearestCommand("tols", names), "tools");
  assert.equal(nearestCommand("sesin", names), "session");
  assert.equal(nearestCommand("hello", names), undefined); // 2 from help (4 letters)
  assert.equal(nearestCommand("test", names), undefined); // 2 from trust (5 letters)
  assert.equal(nearestCommand("why", names), undefined); // 2 from web
  assert.equal(nearestCommand("Tools", names), undefined); // not a command word
  assert.equal(nearestCommand("tools", names), undefined); // is one
  assert.equal(typoError("fix", ["the", "bug"], KNOWN), undefined);
  assert.equal(typoError("sesion", ["is", "broken"], KNOWN), undefined);
  assert.equal(typoError("tols", ["please"], KNOWN), undefined);
  assert.match(typoError("sesion", ["show", "x"], KNOWN)!.hint, /`hs session show x`/);
  assert.equal(typoError("tols", [], KNOWN)!.exitCode, 2);
});
