/**
 * Loading behavior programs (seed 000 §3, "Registration"): each test quotes the sentence it
 * checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LoadError, loadProgram } from "../../stdlib-harness/mod.ts";

async function withPack(
  files: Record<string, string>,
  fn: (root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "hs-pack-" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(join(root, name, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, name), text);
    }
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const load = (root: string, file = "main.scm", configuration?: unknown) =>
  loadProgram({ file: join(root, file), root, configuration: configuration as never });

async function loadError(source: string, pattern: RegExp, line?: number): Promise<void> {
  await withPack({ "main.scm": source }, async (root) => {
    const err = await load(root).then(() => undefined, (e) => e);
    assert.ok(err instanceof LoadError, `expected a load error, got ${err}`);
    assert.match(err.message, pattern);
    if (line !== undefined) assert.match(err.loc, new RegExp(`main\\.scm:${line}:\\d+$`));
  });
}

Deno.test("'Top-level forms register. Bodies do not run.'", async () => {
  await withPack({
    "main.scm": `
(define ran #f)
(guard/shell :match "git *" :middleware (lambda (raw invoke) (set! ran #t) (invoke raw)))
(hook/shell :post (lambda (command result) (set! ran #t) "formatted"))
(define/tool 'now :kind 'both :description "the time" :input (z/object (dict))
  :handler (lambda (input) (set! ran #t) "noon"))
`,
  }, async (root) => {
    const p = await load(root);
    const r = p.registrations;
    assert.deepEqual(
      [r.guards.length, r.hooks.length, r.tools.length],
      [1, 1, 1],
    );
    assert.equal(p.interpreter.lookup("ran"), false, "no body ran at load");
    assert.equal(r.guards[0].point, "shell");
    assert.deepEqual(r.guards[0].match, ["git *"]);
    assert.match(r.guards[0].hash, /^[0-9a-f]{64}$/);
  });
});

Deno.test("'The same forms inside a callback are a load error (callback-time registration)'", async () => {
  await loadError(
    `(define x 1)\n(define (later) (guard/shell :middleware (lambda (r i) (i r))))\n`,
    /guard\/shell inside another form: callback-time registration/,
    2,
  );
  await loadError(
    `(hook/shell :post (lambda (c r) (define/tool 'x :kind 'procedure :handler car) r))\n`,
    /define\/tool inside another form: callback-time registration/,
    1,
  );
  // begin at the top level is still the top level; quoted forms are data
  await withPack({
    "main.scm": `(begin (hook/turn :pre (lambda (r) r)))\n(define data '(guard/shell :x 1))\n`,
  }, async (root) => {
    assert.equal((await load(root)).registrations.hooks.length, 1);
  });
});

Deno.test("'A hook keyword on a guard, or :middleware on a hook, is a load error.'", async () => {
  await loadError(
    `(guard/shell :post (lambda (c r) r) :middleware (lambda (r i) (i r)))`,
    /:post is a hook keyword; a guard has :middleware/,
    1,
  );
  await loadError(
    `(hook/shell :middleware (lambda (r i) (i r)))`,
    /:middleware belongs to a guard/,
  );
});

Deno.test("'Unknown keywords are a load error.' ':reentrant-depth is a nonnegative integer'", async () => {
  await loadError(`(guard/edit :colour 'red :middleware car)`, /unknown keyword :colour/);
  await loadError(
    `(guard/shell :reentrant-depth -1 :middleware (lambda (r i) (i r)))`,
    /:reentrant-depth must be a nonnegative integer/,
  );
  await withPack({ "main.scm": `(guard/shell :middleware (lambda (r i) (i r)))` }, async (root) => {
    assert.equal((await load(root)).registrations.guards[0].reentrantDepth, 0, "defaults to 0");
  });
});

Deno.test("'guard/read and guard/write require matchers.'", async () => {
  await loadError(`(guard/read :middleware (lambda (r i) (i r)))`, /guard\/read requires matchers/);
  await loadError(
    `(guard/write :middleware (lambda (r i) (i r)))`,
    /guard\/write requires matchers/,
  );
});

Deno.test("':replace is a guard capability and needs :contract redaction or summarize. There is no :short-circuit.'", async () => {
  await loadError(
    `(guard/shell :capabilities 'replace :middleware (lambda (r i) (i r)))`,
    /the replace capability needs :contract 'redaction or 'summarize/,
  );
  await loadError(
    `(guard/shell :capabilities 'replace :contract 'rewrite :middleware (lambda (r i) (i r)))`,
    /:contract must be 'redaction or 'summarize/,
  );
  await loadError(
    `(guard/shell :capabilities 'short-circuit :middleware (lambda (r i) (i r)))`,
    /there is no short-circuit/,
  );
});

Deno.test("''tool and 'both require :description and :input. 'procedure stays out of the model catalog. :input must be a schema.'", async () => {
  await loadError(
    `(define/tool 'x :kind 'tool :handler car)`,
    /a 'tool needs :description and :input/,
  );
  await loadError(
    `(define/tool 'x :kind 'both :description "d" :input "no" :handler car)`,
    /:input must be a schema/,
  );
  await withPack({
    "main.scm":
      `(define/tool 'helper :kind 'procedure :handler (lambda (x) (* x 2)))\n(define y (helper 21))`,
  }, async (root) => {
    const p = await load(root);
    assert.equal(p.interpreter.lookup("y"), 42, "a procedure is callable from the program");
    assert.equal(p.registrations.tools[0].kind, "procedure");
  });
});

Deno.test("'A second reducer in the module is a load error.' 'The loader rejects a handler whose source contains JSON.parse.'", async () => {
  await loadError(
    `(define/reducer :initial (lambda () 0) :reduce (lambda (s a) s))\n(define/reducer :initial (lambda () 1) :reduce (lambda (s a) s))`,
    /a second reducer in the module \(the first is at .*main\.scm:1:1\)/,
    2,
  );
  await loadError(
    `(define/method 'put :kind 'command :input z/string :output z/string :handler (lambda (i s) (JSON.parse i)))`,
    /source contains JSON\.parse/,
  );
  await loadError(
    `(define/method 'put :kind 'maybe :input z/string :output z/string :handler car)`,
    /:kind must be 'query or 'command/,
  );
});

Deno.test("'require: another file, resolved from the current one, jailed, deduplicated by path'", async () => {
  await withPack({
    "main.scm": `(require "lib/util.scm")\n(require "./lib/util.scm")\n(define z (twice 4))`,
    "lib/util.scm":
      `(define count 0)\n(set! count (+ count 1))\n(define (twice x) (* 2 x))\n(require "more.scm")`,
    "lib/more.scm": `(hook/round :pre (lambda (r) r))`,
  }, async (root) => {
    const p = await load(root);
    assert.equal(p.interpreter.lookup("z"), 8);
    assert.equal(p.interpreter.lookup("count"), 1, "loaded once");
    assert.equal(p.files.length, 3);
    assert.equal(p.registrations.hooks[0].point, "round");
  });
  await loadError(`(require "../outside.scm")`, /escapes the pack root/);
  await loadError(`(require "missing.scm")`, /cannot read .*missing\.scm \(a missing file\)/);
});

Deno.test("'configuration is JSON data, validated by validate/configuration before the agent works'", async () => {
  await withPack({
    "main.scm":
      `(validate/configuration (lambda (c) (dict-has? c "requireVerdict")))\n(define seen (configuration))`,
  }, async (root) => {
    assert.equal(
      await (await load(root, "main.scm", { requireVerdict: true })).validateConfiguration(),
      undefined,
    );
    assert.match(
      (await (await load(root, "main.scm", { other: 1 })).validateConfiguration())!,
      /main\.scm:1:1: validate\/configuration returned #f/,
    );
  });
});

Deno.test("a registration called from a callback at run time is refused", async () => {
  await withPack({
    "main.scm": `(define reg guard/shell)\n(define (later) (reg :middleware car))`,
  }, async (root) => {
    const p = await load(root);
    await assert.rejects(() => p.interpreter.call("later"), /callback-time registration/);
  });
});

Deno.test("a hostile program cannot hang or flood loading: the sandbox's limits apply", async () => {
  await loadError(`(define (f) (f))\n(f)`, /stopped by the sandbox \((fuel|deadline)\)/, 2);
  await loadError(`(define (g n) (cons n (g (+ n 1))))\n(g 0)`, /stopped by the sandbox/);
});

Deno.test("consent hashes change with the handler source and the declaration, not with whitespace", async () => {
  const hash = async (src: string) => {
    let h = "";
    await withPack({ "main.scm": src }, async (root) => {
      h = (await load(root)).registrations.guards[0].hash;
    });
    return h;
  };
  const base = await hash(`(guard/shell :middleware (lambda (raw invoke) (invoke raw)))`);
  assert.equal(
    base,
    await hash(`(guard/shell\n   :middleware (lambda (raw invoke)\n (invoke raw)))`),
  );
  assert.notEqual(
    base,
    await hash(`(guard/shell :middleware (lambda (raw invoke) (invoke (list raw))))`),
  );
  assert.notEqual(
    base,
    await hash(`(guard/shell :match "git *" :middleware (lambda (raw invoke) (invoke raw)))`),
  );
  assert.notEqual(base, await hash(`(guard/edit :middleware (lambda (raw invoke) (invoke raw)))`));
});
