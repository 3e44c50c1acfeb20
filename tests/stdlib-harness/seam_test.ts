/**
 * Guards and hooks of behavior programs on the effect seam (seed 000 §4, "Guards and hooks"),
 * through the real dispatcher; each test quotes the sentence it checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type AuditEvent,
  Dispatcher,
  type EffectCall,
  type Floor,
  resultText,
  textResult,
  type ToolResult,
} from "../../core/mod.ts";
import { write } from "../../scheme/mod.ts";
import { loadProgram, seamGuard, seamHook } from "../../stdlib-harness/mod.ts";

const places = { workspace: "/w", home: "/h", userHome: "/u" };

async function seam(source: string, floor?: Floor) {
  const root = await Deno.makeTempDir({ prefix: "hs-seam-" });
  await Deno.writeTextFile(join(root, "main.scm"), source);
  const p = await loadProgram({ file: join(root, "main.scm"), root });
  await Deno.remove(root, { recursive: true });
  const scope = { appliesTo: (pr: string) => pr === "main", places, owner: "pack/bot" };
  const guards = p.registrations.guards.map((g) => seamGuard(p.interpreter, g, scope));
  const hooks = p.registrations.hooks.map((h) => seamHook(p.interpreter, h, scope));
  const hookErrors: string[] = [];
  const audit: AuditEvent[] = [];
  const floorSaw: unknown[] = [];
  const d = new Dispatcher({
    guards: () => guards,
    hooks: () => hooks,
    floor: floor ?? {
      decide: (c) => {
        floorSaw.push(c.input);
        return { decision: "allow", rule: "test" };
      },
    },
    audit: (e) => audit.push(e),
    onHookError: (id, m) => hookErrors.push(`${id}: ${m}`),
  });
  let runs = 0;
  const core = (out: string, error = false) => (input: unknown): Promise<ToolResult> => {
    runs++;
    return Promise.resolve(textResult(out.replace("$INPUT", JSON.stringify(input)), error));
  };
  return { p, d, hookErrors, audit, floorSaw, core, runs: () => runs };
}

const bash = (command: string, principal = "main"): EffectCall => ({
  point: "shell",
  tool: "bash",
  owner: { kind: "builtin", id: "core-tools" },
  principal,
  callId: "c1",
  input: { command },
});

Deno.test("'The host matches globs before Scheme runs. A miss does not enter the middleware.'", async () => {
  const t = await seam(`
(define entered 0)
(guard/shell :match "git *" :middleware (lambda (raw invoke) (set! entered (+ entered 1)) (invoke raw)))`);
  await t.d.dispatch(bash("ls -la"), t.core("ok"));
  await t.d.dispatch(bash("git status", "agent:other"), t.core("ok"));
  assert.equal(
    t.p.interpreter.lookup("entered"),
    0,
    "a miss (command, or another agent) never ran Scheme",
  );
  await t.d.dispatch(bash("cd x && git status"), t.core("ok"));
  assert.equal(t.p.interpreter.lookup("entered"), 1);
});

Deno.test("redaction: a guard with 'replace and 'redaction rewrites the result; the mark says so", async () => {
  const t = await seam(`
(guard/shell :capabilities 'replace :contract 'redaction
  :middleware (lambda (raw invoke)
                (let ((r (invoke raw)))
                  (dict-set r :text (string-join (string-split (:text r) "sk-SECRET") "[redacted]")))))`);
  const r = await t.d.dispatch(bash("env"), t.core("KEY=sk-SECRET\nok"));
  assert.equal(resultText(r), "KEY=[redacted]\nok");
  assert.deepEqual(r.marks, ["redacted"]);
});

Deno.test("'The chain is guards, then the floor, then the core.' (a rewritten value reaches the floor)", async () => {
  const t = await seam(`
(guard/shell :middleware (lambda (raw invoke) (invoke (dict-set raw :command "echo safe"))))`);
  const r = await t.d.dispatch(bash("rm -rf /"), t.core("ran $INPUT"));
  assert.deepEqual(t.floorSaw, [{ command: "echo safe" }]);
  assert.equal(resultText(r), 'ran {"command":"echo safe"}');
});

Deno.test("'A guard that does not invoke must return (refuse \"…\").'", async () => {
  const t = await seam(`
(guard/shell :match "rm *" :middleware (lambda (raw invoke) (refuse "no deleting here")))
(guard/shell :id 'silent :match "mv *" :middleware (lambda (raw invoke) "fabricated"))`);
  const r = await t.d.dispatch(bash("rm x"), t.core("ok"));
  assert.equal(resultText(r), "error: refused by guard pack/bot/guard/shell#1: no deleting here");
  const s = await t.d.dispatch(bash("mv a b"), t.core("ok"));
  assert.match(resultText(s), /refused by guard pack\/bot\/silent: it returned without invoking/);
  assert.equal(t.runs(), 0, "only the core originates success");
});

Deno.test("'invoke is single-use, including a second call after the core has returned.' 'A throw after a successful invoke keeps the core result and surfaces the failure.'", async () => {
  const t = await seam(`
(guard/shell :middleware (lambda (raw invoke) (invoke raw) (invoke raw)))`);
  const r = await t.d.dispatch(bash("ls"), t.core("core said this"));
  assert.equal(resultText(r), "core said this");
  assert.equal(t.runs(), 1);
  assert.match(t.hookErrors[0], /guard failed after invoke: .*invoke called twice/);
});

Deno.test("'A later guard cannot drop a mark an earlier guard placed.'", async () => {
  const t = await seam(`
(guard/shell :id 'marker :middleware (lambda (raw invoke)
  (let ((r (invoke raw))) (dict-set r :marks (vector "reviewed")))))
(guard/shell :id 'dropper :middleware (lambda (raw invoke)
  (let ((r (invoke raw))) (dict-set r :marks (vector)))))`);
  const r = await t.d.dispatch(bash("ls"), t.core("ok"));
  assert.deepEqual(r.marks, ["reviewed"]);
});

Deno.test("'guard/retry restarts the chain from the raw value under a finite budget. The budget ends as a refusal.'", async () => {
  const t = await seam(`
(define tries 0)
(guard/shell :middleware (lambda (raw invoke) (set! tries (+ tries 1)) (guard/retry "flaky")))`);
  const r = await t.d.dispatch(bash("ls"), t.core("ok"));
  assert.match(resultText(r), /retry budget of 3 exhausted \(flaky\)/);
  assert.equal(t.p.interpreter.lookup("tries"), 4);
  assert.equal(t.runs(), 0);
});

Deno.test("'A broken guard fails closed. A broken hook fails open: its error is collected, and the primary result stays.'", async () => {
  const t = await seam(`
(guard/shell :match "ls*" :middleware (lambda (raw invoke) (car '())))
(hook/shell :post (lambda (command result) (car '())))
(guard/shell :match "loop*" :middleware (lambda (raw invoke) (let l () (l))))`);
  const closed = await t.d.dispatch(bash("ls"), t.core("ok"));
  assert.match(resultText(closed), /refused by guard .* \(it failed; guards fail closed\)/);
  const open = await t.d.dispatch(bash("echo hi"), t.core("primary"));
  assert.equal(resultText(open), "primary");
  assert.match(t.hookErrors.join("\n"), /hook\/shell#2: .*car/);
  const runaway = await t.d.dispatch(bash("loop"), t.core("ok"));
  assert.match(resultText(runaway), /guards fail closed/, "a guard out of fuel fails closed");
});

Deno.test("'Tool :pre, :post, and :post-fail hooks see the value that reached the floor.'", async () => {
  const t = await seam(`
(define seen '())
(guard/shell :middleware (lambda (raw invoke) (invoke (dict-set raw :command "echo rewritten"))))
(hook/shell :pre (lambda (v) (set! seen (cons (list 'pre (:command v)) seen)))
            :post (lambda (v r) (set! seen (cons (list 'post (:command v) (:text r)) seen)))
            :post-fail (lambda (v f) (set! seen (cons (list 'fail (:command v)) seen))))`);
  await t.d.dispatch(bash("original"), t.core("out"));
  await t.d.dispatch(bash("original"), t.core("bad", true));
  const seen = t.p.interpreter.callSync("reverse", t.p.interpreter.lookup("seen"));
  assert.equal(
    write(seen),
    '((pre "echo rewritten") (post "echo rewritten" "out") (pre "echo rewritten") (fail "echo rewritten"))',
  );
});

Deno.test("the guarded tool's time is not the guard's: a slow core does not hit the guard's deadline", async () => {
  const root = await Deno.makeTempDir({ prefix: "hs-seam-" });
  await Deno.writeTextFile(
    join(root, "main.scm"),
    `(guard/shell :middleware (lambda (raw invoke) (invoke raw)))`,
  );
  const p = await loadProgram({
    file: join(root, "main.scm"),
    root,
    limits: { timeoutMs: 100 },
  });
  await Deno.remove(root, { recursive: true });
  const g = seamGuard(p.interpreter, p.registrations.guards[0], {
    appliesTo: () => true,
    places,
    owner: "t",
  });
  const d = new Dispatcher({
    guards: () => [g],
    hooks: () => [],
    floor: { decide: () => ({ decision: "allow", rule: "t" }) },
    audit: () => {},
  });
  const slow = () =>
    new Promise<ToolResult>((resolve) =>
      setTimeout(() => resolve(textResult("slow but fine")), 300)
    );
  const r = await d.dispatch(bash("sleep"), slow);
  assert.equal(resultText(r), "slow but fine");
});
