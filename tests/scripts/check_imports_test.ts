/**
 * `deno task check`'s import rules (scripts/check_imports.ts): each rule on a
 * small graph that breaks it, and the repository itself passing.
 */
import assert from "node:assert/strict";
import {
  ALLOWED_LONG,
  codeLineStarts,
  commandImports,
  cycles,
  importsOf,
  kernelReach,
  longFunctions,
  missingImports,
  modCode,
  shapeViolations,
  staleAllowances,
  violations,
} from "../../scripts/check_imports.ts";
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

Deno.test("missingImports: a relative import (also a literal dynamic one) of no file is reported", () => {
  const text = `import { a } from "./a.ts";\nconst t = await import("../core/trust/mod.ts");\n`;
  const edges = importsOf("cli/commands/trust.ts", text);
  const present = new Set(["cli/commands/a.ts", "core/trust/mod.ts"]);
  assert.deepEqual(missingImports(edges, (p) => present.has(p)).map((v) => v.message), [
    "cli/commands/trust.ts imports cli/core/trust/mod.ts, which does not exist",
  ]);
  assert.deepEqual(missingImports(edges, () => true), []);
});

Deno.test("staleAllowances: an allow-list entry whose file holds the shape, or is gone, is reported", () => {
  const long = `function f() {\n${"  x();\n".repeat(130)}}\n`;
  const files = [{ path: "core/a.ts", text: long }, { path: "core/b.ts", text: "export {};\n" }];
  const allowed = { "core/a.ts": "why", "core/b.ts": "why", "core/gone.ts": "why" };
  assert.deepEqual(staleAllowances(files, allowed).map((v) => v.message.split(" is in")[0]), [
    "core/b.ts",
    "core/gone.ts",
  ]);
});

Deno.test("the repository follows its own import rules", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", `${REPO}/scripts/check_imports.ts`, REPO],
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(text, /imports ok: \d+ edges, no cycle/);
});

// ---------------------------------------------------------------------------------------------
// The shape rules (scripts/shape_rules.ts)

/** A function of `n` lines in total (header and closing brace included), at `indent`. */
function fn(header: string, n: number, indent = ""): string {
  const body = Array.from({ length: n - 2 }, (_, i) => `${indent}  const v${i} = ${i};`);
  return [`${indent}${header}`, ...body, `${indent}}`].join("\n");
}

Deno.test("longFunctions: functions, methods, arrows and multi-line headers over the limit", () => {
  assert.deepEqual(longFunctions(fn("export function f() {", 121)), [
    { line: 1, name: "f", lines: 121 },
  ]);
  assert.deepEqual(longFunctions(fn("export function f() {", 120)), []);
  const cls = `export class C {\n${fn("async #run(x: number): Promise<void> {", 130, "  ")}\n}\n`;
  assert.deepEqual(longFunctions(cls).map((f) => [f.name, f.lines]), [["#run", 130]]);
  const arrow = fn("const handler = async (req: Request) => {", 125);
  assert.deepEqual(longFunctions(arrow).map((f) => [f.name, f.lines]), [["handler", 125]]);
  const multi = [
    "export function g(",
    "  a: string,",
    "  b: number,",
    "): void {",
    ...Array.from({ length: 120 }, (_, i) => `  const v${i} = ${i};`),
    "}",
  ].join("\n");
  assert.deepEqual(longFunctions(multi).map((f) => [f.name, f.lines]), [["g", 125]]);
  // an `if` block is not a function; a short function inside a long one is not reported
  assert.deepEqual(longFunctions(fn("if (x) {", 200)), []);
});

Deno.test("longFunctions: code inside template literals, strings and comments is not read", () => {
  const browser = `export const JS = \`\n${fn("function follow(main) {", 150)}\n\`;\n`;
  assert.deepEqual(longFunctions(browser), []);
  const nested = `const s = \`a \${\`b\`} c\n${fn("function inTemplate() {", 150)}\n\`;\n`;
  assert.deepEqual(longFunctions(nested), []);
  const comment = `/*\n${fn("function commented() {", 150)}\n*/\n`;
  assert.deepEqual(longFunctions(comment), []);
  // a regular expression with a backtick or a quote does not open a string
  const re = `const r = /[\`'"]/g;\n${fn("function after() {", 130)}\n`;
  assert.deepEqual(longFunctions(re).map((f) => f.name), ["after"]);
  assert.deepEqual(codeLineStarts("a\n`x\ny`\nb"), [true, true, false, true]);
});

Deno.test("modCode: a mod.ts may only re-export", () => {
  assert.equal(
    modCode(`/** doc */\nexport * from "./a.ts";\nexport { b, type C } from "./b.ts";\n`),
    undefined,
  );
  assert.equal(
    modCode(`export {\n  x,\n  type Y,\n} from "./x.ts";\nexport type { Z } from "./z.ts";\n`),
    undefined,
  );
  assert.match(modCode(`export * from "./a.ts";\nexport function f() {}\n`)!, /^export function f/);
  assert.match(modCode(`import { a } from "./a.ts";\nexport { a };\n`)!, /^import/);
  assert.match(modCode(`export const list = [1, 2];\n`)!, /^export const list/);
});

Deno.test("commandImports: a command imports no other command; the list may import them all", () => {
  const rules = (edges: [string, string][]) =>
    commandImports(edges.map(([from, to]) => ({ from, to }))).map((v) => v.rule);
  assert.deepEqual(rules([["cli/commands/run.ts", "cli/commands/session.ts"]]), [
    "command import",
  ]);
  assert.deepEqual(rules([["cli/commands/packs/show.ts", "cli/commands/run.ts"]]), [
    "command import",
  ]);
  assert.deepEqual(rules([["cli/commands/mod.ts", "cli/commands/run.ts"]]), []);
  // one command's folder is one command: its files may import each other
  assert.deepEqual(rules([["cli/commands/packs/packs.ts", "cli/commands/packs/state.ts"]]), []);
  assert.deepEqual(rules([["cli/commands/packs/mod.ts", "cli/commands/packs/packs.ts"]]), []);
  assert.deepEqual(rules([["cli/commands/run.ts", "cli/commands/packs/mod.ts"]]), [
    "command import",
  ]);
  assert.deepEqual(rules([["cli/commands/run.ts", "cli/view/mod.ts"]]), []);
  assert.deepEqual(rules([["cli/repl/repl.ts", "cli/commands/mod.ts"]]), []);
});

Deno.test("kernelReach: a front end names no HarnessCore and makes no kernel; core may", () => {
  const rules = (files: [string, string][], edges: [string, string][] = []) =>
    kernelReach(
      files.map(([path, text]) => ({ path, text })),
      edges.map(([from, to]) => ({ from, to })),
    ).map((v) => v.message.split(":")[0]);
  const named =
    `import type { HarnessCore } from "../../core/mod.ts";\nexport let h: HarnessCore;\n`;
  assert.deepEqual(rules([["cli/commands/x.ts", named]]), ["cli/commands/x.ts names HarnessCore"]);
  assert.deepEqual(rules([["cli/web/y.ts", `const f = (h: HarnessCore) => h.registries;\n`]]), [
    "cli/web/y.ts names HarnessCore",
  ]);
  // the façade is what a front end holds; a comment naming the kernel is not a reach
  const facade = `import type { FrontEnd } from "../../core/mod.ts";\n// not HarnessCore\n`;
  assert.deepEqual(rules([["cli/commands/x.ts", facade]]), []);
  assert.deepEqual(rules([["cli/x.ts", `/** see HarnessCore.close */\nexport {};\n`]]), []);
  assert.deepEqual(rules([["core/harness.ts", `export class HarnessCore {}\n`]]), []);
  assert.deepEqual(rules([["main.ts", named]]), []);
  // the kernel with its built-ins is made by main.ts, not by a front end
  assert.deepEqual(rules([], [["cli/commands/x.ts", "plugins/mod.ts"]]), [
    "cli/commands/x.ts imports plugins/mod.ts",
  ]);
  assert.deepEqual(rules([], [["cli/commands/init.ts", "plugins/providers/mod.ts"]]), []);
  assert.deepEqual(rules([], [["main.ts", "plugins/mod.ts"]]), []);
});

Deno.test("shapeViolations: every rule fires on its fixture, and the exemptions hold", () => {
  const long = Array.from({ length: 601 }, (_, i) => `export const c${i} = ${i};`).join("\n") +
    "\n";
  const files = [
    { path: "core/x/mod.ts", text: `export function f(): void {}\n` },
    { path: "core/x/big.ts", text: long },
    { path: "core/x/fn.ts", text: fn("export function f() {", 121) + "\n" },
    { path: "scheme/primitives/big.ts", text: long + fn("function g() {", 200) },
    { path: "scheme/base/driver.ts", text: long },
    { path: "core/x/ok.ts", text: long.split("\n").slice(0, 600).join("\n") + "\n" },
  ];
  const edges = [{ from: "cli/commands/a.ts", to: "cli/commands/b.ts" }];
  const found = shapeViolations(files, edges);
  assert.deepEqual(found.map((v) => v.rule), [
    "mod.ts with code",
    "file size",
    "function size",
    "command import",
  ]);
  assert.match(found[0].message, /core\/x\/mod\.ts holds code/);
  assert.match(found[1].message, /core\/x\/big\.ts has 601 lines/);
  assert.match(found[2].message, /core\/x\/fn\.ts:1 f has 121 lines/);
  for (const [file, reason] of Object.entries(ALLOWED_LONG)) {
    assert.match(reason, /issue 26|containment/, `${file} names its reason`);
  }
});

Deno.test("check_imports.ts fails on a tree that breaks each shape rule", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-shape-" });
  try {
    const write = async (path: string, text: string) => {
      await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
      await Deno.writeTextFile(`${root}/${path}`, text);
    };
    await write("core/a/mod.ts", `export const registry = new Map();\n`);
    await write("core/a/long.ts", fn("export function long() {", 130) + "\n");
    await write("cli/commands/run.ts", `import { x } from "./session.ts";\nexport const r = x;\n`);
    await write("cli/commands/session.ts", `export const x = 1;\n`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", `${REPO}/scripts/check_imports.ts`, root],
    }).output();
    const text = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, text);
    assert.match(text, /^mod\.ts with code: core\/a\/mod\.ts holds code/m);
    assert.match(text, /^function size: core\/a\/long\.ts:1 long has 130 lines/m);
    assert.match(text, /^command import: cli\/commands\/run\.ts imports the command/m);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
