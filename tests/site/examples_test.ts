/**
 * The docs' examples run: every fenced block of README.md and docs/*.md marked
 * `<!-- test -->` is executed in a fresh home and workspace (site/lib/examples.ts).
 */
import assert from "node:assert/strict";
import {
  checkExamples,
  extractExamples,
  repoExamples,
  runExample,
  shellForTest,
  tsForTest,
} from "../../site/lib/examples.ts";
import { sandboxEnv } from "../../site/lib/hs.ts";

const examples = await repoExamples();
const env = sandboxEnv();

Deno.test("the docs mark examples to run", () => {
  assert.ok(examples.length >= 3, `only ${examples.length} marked examples`);
  assert.ok(examples.some((e) => e.file === "README.md"));
});

Deno.test("the docs' TypeScript examples type-check (together, once)", async () => {
  const r = await checkExamples(examples);
  assert.equal(r.code, 0, r.output);
});

for (const ex of examples) {
  Deno.test(`docs example ${ex.file}:${ex.line} (${ex.lang}) runs`, async () => {
    const r = await runExample(ex, env, { checked: true });
    assert.equal(r.code, 0, `${ex.file}:${ex.line} exited ${r.code}:\n${r.output}`);
    if (ex.expect !== undefined) {
      assert.ok(r.output.includes(ex.expect), `expected "${ex.expect}" in:\n${r.output}`);
    }
  });
}

const SAMPLE = [
  "# Sample",
  "",
  "```sh",
  "echo not marked",
  "```",
  "",
  '<!-- test expect="hs 0" -->',
  "",
  "```sh",
  "deno task hs version",
  "```",
  "",
  "<!-- test -->",
  "````ts",
  'import { VERSION } from "./core/version.ts";',
  "```",
  "````",
].join("\n");

Deno.test("examples: only marked blocks are extracted, with their language and expectation", () => {
  const ex = extractExamples(SAMPLE, "sample.md");
  assert.deepEqual(ex.map((e) => [e.line, e.lang, e.expect]), [[9, "sh", "hs 0"], [
    14,
    "ts",
    undefined,
  ]]);
  assert.equal(ex[0].code, "deno task hs version\n");
  assert.equal(ex[1].code, 'import { VERSION } from "./core/version.ts";\n```\n');
});

Deno.test("examples: a marker that is not above a runnable block is an error", () => {
  assert.throws(() => extractExamples("<!-- test -->\ntext\n", "a.md"), /a.md:1: a test marker/);
  assert.throws(() => extractExamples("<!-- test -->\n```json\n{}\n```\n", "b.md"), /cannot run/);
});

Deno.test("examples: deno task hs becomes hs; relative imports come from the repository", () => {
  assert.equal(shellForTest("npx -y deno@2.9.6 task hs tools && deno task hs"), "hs tools && hs");
  assert.match(tsForTest('import { Harness } from "./mod.ts";'), /from "file:\/\/\/.+\/mod\.ts"/);
});

Deno.test("examples: the runner runs hs and reports failures", async () => {
  const [ok] = extractExamples(SAMPLE, "sample.md");
  const r = await runExample(ok, env);
  assert.equal(r.code, 0, r.output);
  assert.match(r.output, /^hs 0\.\d/m);
  const bad = await runExample({ ...ok, code: "false\necho unreachable\n" }, env);
  assert.equal(bad.code, 1);
  assert.doesNotMatch(bad.output, /unreachable/);
  const badTs = await runExample({ ...ok, lang: "ts", code: "const x: number = 'no';\n" }, env);
  assert.notEqual(badTs.code, 0);
  assert.match(badTs.output, /TS2322/);
  const typed = { ...ok, lang: "ts", code: "const y: string = 1;\n" };
  const checked = await checkExamples([{ ...ok, lang: "ts", code: "const x = 1;\n" }, typed]);
  assert.notEqual(checked.code, 0);
  assert.match(checked.output, /TS2322[\s\S]*sample\.md_\d+_1\.ts/);
});
