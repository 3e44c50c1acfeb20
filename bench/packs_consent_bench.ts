/**
 * Guard consent (seed 000 §7): hashing the guards of a generated 50-guard pack — each guard's
 * reach over the pack's top-level forms (its helpers, transitively, across the entry file and
 * a required file) and its digest. Budget: 5 ms (median) for the 50 guards. The whole load of
 * the same pack (reading, evaluating, hashing) is timed beside it.
 *
 * `deno bench -A bench/packs_consent_bench.ts`, or the medians:
 * `deno run -A bench/packs_consent_bench.ts --median`
 *
 * @module
 */
import { join } from "node:path";
import { consentHashes, type DeclaredGuard, loadProgram } from "../stdlib-harness/mod.ts";
import { median, timeMany } from "./_stats.ts";

const GUARDS = 50;

/** A pack program of 50 guards, 150 helpers (chains of three), 20 hooks and 10 tools, and a library. */
export function generate(): { main: string; lib: string } {
  const lib = Array.from(
    { length: 50 },
    (_, i) => `(define (lib-${i} s) (string-append s "-${i}"))`,
  ).join("\n");
  const out: string[] = [`(require "lib.scm")`, `(define counter 0)`];
  for (let i = 0; i < GUARDS; i++) {
    out.push(
      `(define (leaf-${i} s) (lib-${i} (string-append s "${i}")))`,
      `(define (mid-${i} s) (if (> (string-length s) 100) s (leaf-${i} s)))`,
      `(define (top-${i} raw) (dict-set raw :command (mid-${i} (:command raw))))`,
      `(guard/shell :id 'guard-${i} :match "cmd-${i} *"
  :middleware (lambda (raw invoke)
                (if (string-contains (:command raw) "forbidden-${i}")
                    (refuse "no")
                    (invoke (top-${i} raw)))))`,
    );
  }
  for (let i = 0; i < 20; i++) {
    out.push(`(hook/shell :post (lambda (c r) (set! counter (+ counter ${i}))))`);
  }
  for (let i = 0; i < 10; i++) {
    out.push(
      `(define/tool 'tool_${i} :kind 'tool :description "t" :input (z/object (dict :x z/string))
  :handler (lambda (i) (lib-${i} (:x i))))`,
    );
  }
  return { main: out.join("\n") + "\n", lib: lib + "\n" };
}

const { main, lib } = generate();
const root = Deno.makeTempDirSync({ prefix: "hs-consent-bench-" });
Deno.writeTextFileSync(join(root, "main.scm"), main);
Deno.writeTextFileSync(join(root, "lib.scm"), lib);
globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));

const loaded = await loadProgram({ file: join(root, "main.scm"), root });
const forms = loaded.forms;
const guards: DeclaredGuard[] = loaded.registrations.guards.map((decl) => ({
  decl,
  form: decl.form,
}));
const expected = loaded.registrations.guards.map((g) => g.hash);
const check = (hs: string[]) => {
  if (hs.length !== GUARDS || hs.some((h, i) => h !== expected[i])) {
    throw new Error("the bench's hashes differ from the loader's");
  }
};
check(await consentHashes(forms, guards));

Deno.bench("consent hashing: 50 guards of a pack (reach + digest)", async () => {
  await consentHashes(forms, guards);
});

Deno.bench("pack program load with its 50 guards hashed (read, evaluate, hash)", async () => {
  await loadProgram({ file: join(root, "main.scm"), root });
});

if (import.meta.main && Deno.args.includes("--median")) {
  for (let i = 0; i < 50; i++) await consentHashes(forms, guards); // warm up
  const hashing = median(await timeMany(200, () => consentHashes(forms, guards)));
  const load = median(
    await timeMany(50, () => loadProgram({ file: join(root, "main.scm"), root })),
  );
  console.log(`consent hashing, 50 guards: median ${hashing.toFixed(2)} ms (budget 5 ms)`);
  console.log(`program load with 50 guards hashed: median ${load.toFixed(2)} ms`);
}
