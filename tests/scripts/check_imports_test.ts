/**
 * `deno task check`'s import rules (scripts/check_imports.ts): each rule on a
 * small graph that breaks it, and the repository itself passing.
 */
import assert from "node:assert/strict";
import { cycles, importsOf, violations } from "../../scripts/check_imports.ts";
import { REPO } from "../support/workspace.ts";

Deno.test("importsOf: static, type-only, re-export and literal dynamic imports; comments ignored", () => {
  const text = `
import { a } from "./a.ts";
import type { B } from "../b/mod.ts";
export * from "./c.ts";
// import { gone } from "./commented.ts";
/** import { doc } from "./doc.ts"; */
const x = await import("./d.ts");
import { z } from "zod";
`;
  assert.deepEqual(importsOf("core/loop/x.ts", text).map((e) => e.to), [
    "core/loop/a.ts",
    "core/b/mod.ts",
    "core/loop/c.ts",
    "core/loop/d.ts",
  ]);
});

Deno.test("violations: deep, upward, layering and cycles are each reported", () => {
  const rules = (edges: [string, string][]) =>
    violations(edges.map(([from, to]) => ({ from, to }))).map((v) => v.rule);
  assert.deepEqual(rules([["core/loop/turn.ts", "core/session/session.ts"]]), ["deep import"]);
  assert.deepEqual(rules([["core/loop/turn.ts", "core/session/mod.ts"]]), []);
  assert.deepEqual(rules([["core/loop/turn.ts", "core/harness.ts"]]), ["upward import"]);
  assert.deepEqual(rules([["core/loop/turn.ts", "core/mod.ts"]]), ["upward import"]);
  assert.deepEqual(rules([["core/harness.ts", "plugins/mod.ts"]]), ["layering"]);
  assert.deepEqual(rules([["scheme/mod.ts", "core/mod.ts"]]), ["layering"]);
  assert.deepEqual(rules([["cli/program.ts", "main.ts"]]), ["layering"]);
  assert.deepEqual(rules([["main.ts", "mod.ts"]]), []);
  assert.deepEqual(
    rules([["core/a/x.ts", "core/a/y.ts"], ["core/a/y.ts", "core/a/x.ts"]]),
    ["cycle"],
  );
  assert.deepEqual(cycles([{ from: "a", to: "b" }, { from: "b", to: "c" }]), []);
});

Deno.test("the repository follows its own import rules", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", `${REPO}/scripts/check_imports.ts`, REPO],
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(text, /imports ok: \d+ edges, no cycle/);
});
