/**
 * Consent hashes (seed 000 §7, issue 27 point 1): a guard's hash covers everything its handler
 * can reach in the pack, and nothing else — checked by editing one part of a program at a time
 * and seeing which guards' hashes change.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadProgram } from "../../stdlib-harness/mod.ts";

/** Each guard's hash (by id) of a program written from `files` (entry `main.scm`). */
async function hashes(files: Record<string, string>, configuration: unknown = {}) {
  const root = await Deno.makeTempDir({ prefix: "hs-consent-" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(join(root, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, name), text);
    }
    const p = await loadProgram({
      file: join(root, "main.scm"),
      root,
      configuration: configuration as never,
    });
    return new Map(p.registrations.guards.map((g) => [g.id, { hash: g.hash, loc: g.loc }]));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Which guards' hashes change when `main.scm` (or `file`) has `from` replaced by `to`. */
async function changed(
  files: Record<string, string>,
  from: string,
  to: string,
  file = "main.scm",
): Promise<string[]> {
  assert.ok(files[file].includes(from), `${file} contains ${from}`);
  const before = await hashes(files);
  const after = await hashes({ ...files, [file]: files[file].replace(from, to) });
  return [...before.keys()].filter((id) => before.get(id)!.hash !== after.get(id)?.hash).sort();
}

const guard = (id: string, body: string) =>
  `(guard/shell :id '${id} :middleware (lambda (raw invoke) ${body}))\n`;

Deno.test("a guard's hash covers the helpers it calls, transitively, and not the others'", async () => {
  const files = {
    "main.scm": `(define (inner) "in")
(define (outer) (string-append (inner) "!"))
(define (other) "other")
;; a comment
${guard("a", "(invoke (dict-set raw :command (outer)))")}${
      guard("b", "(invoke (dict-set raw :command (other)))")
    }`,
  };
  assert.deepEqual(await changed(files, `"in"`, `"IN"`), ["a"]);
  assert.deepEqual(await changed(files, `"other"`, `"OTHER"`), ["b"]);
  assert.deepEqual(await changed(files, ";; a comment", ";; another comment"), []);
  assert.deepEqual(await changed(files, "(define (inner)", "(define  (inner)"), []);
});

Deno.test("a guard's hash covers its required files' definitions it reaches, each with its file", async () => {
  const files = {
    "main.scm": `(require "lib/util.scm")\n${guard("a", "(invoke (tag raw))")}${
      guard("b", "(invoke raw)")
    }`,
    "lib/util.scm": `(define (tag raw) (dict-set raw :command "tagged"))\n(define (spare) 1)\n`,
  };
  assert.deepEqual(await changed(files, `"tagged"`, `"TAGGED"`, "lib/util.scm"), ["a"]);
  assert.deepEqual(await changed(files, "(spare) 1", "(spare) 2", "lib/util.scm"), []);
  // a later redefinition wins at run time: it is reached too
  assert.deepEqual(
    await changed(
      files,
      `(require "lib/util.scm")`,
      `(require "lib/util.scm")\n(define (tag r) r)`,
    ),
    ["a"],
  );
});

Deno.test("what can change a reached name is reached: a set! in a hook, a mutation of a shared value, a procedure tool, a macro", async () => {
  const files = {
    "main.scm": `(define (helper x) x)
(define table (make-vector 1 ""))
(hook/shell :post (lambda (c r) (set! helper (lambda (x) "swapped"))))
(define (fill) (vector-set! table 0 "v"))
(define/tool 'shout :kind 'procedure :handler (lambda (x) (string-append x "!")))
(define-syntax twice (syntax-rules () ((_ e) (begin e e))))
${guard("a", "(invoke (dict-set raw :command (helper (:command raw))))")}${
      guard("b", `(invoke (dict-set raw :command (vector-ref table 0)))`)
    }${guard("c", "(invoke (dict-set raw :command (shout (:command raw))))")}${
      guard("d", "(twice (invoke raw))")
    }`,
  };
  assert.deepEqual(await changed(files, `"swapped"`, `"SWAPPED"`), ["a"]);
  assert.deepEqual(await changed(files, `0 "v"`, `0 "w"`), ["b"]);
  assert.deepEqual(await changed(files, `"!"`, `"?"`), ["c"]);
  assert.deepEqual(await changed(files, "(begin e e)", "(begin e)"), ["d"]);
});

Deno.test("a guard that can evaluate data reaches the whole program; one that reads the configuration covers it", async () => {
  const files = {
    "main.scm": `(define (spare) 1)
${guard("a", "(invoke (eval (string->symbol (:command raw))))")}${
      guard("b", `(invoke (dict-set raw :command (dict-ref (configuration) "cmd")))`)
    }${guard("c", "(invoke raw)")}`,
  };
  assert.deepEqual(await changed(files, "(spare) 1", "(spare) 2"), ["a"]);
  const before = await hashes(files, { cmd: "ls" });
  const after = await hashes(files, { cmd: "rm -rf ." });
  assert.notEqual(before.get("b")!.hash, after.get("b")!.hash);
  assert.equal(before.get("c")!.hash, after.get("c")!.hash);
});

Deno.test("a guard declared after a require in one begin is hashed and located as its own form", async () => {
  const files = {
    "main.scm": `(begin (require "lib.scm")\n  ${guard("a", "(invoke raw)")})`,
    "lib.scm": `(define (spare) 1)\n`,
  };
  const h = await hashes(files);
  assert.match(h.get("a")!.loc, /main\.scm:1:1$/);
  assert.deepEqual(await changed(files, "(invoke raw)", "(invoke (dict-set raw :x 1))"), ["a"]);
});
