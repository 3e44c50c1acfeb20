/**
 * A pack's load (issue 27, target ≤ 20 ms median): one pack whose foreground bot's program
 * has 50 top-level forms — guards, hooks, tools, procedures, definitions, a
 * `validate/configuration` — read from its `plugin.json` and frontmatter, loaded in a fresh
 * sandboxed interpreter, checked for callback-time registration, its configuration validated
 * and its guards hashed; then the load-error path (the same program with its last list
 * unclosed, which the fail-closed refusal reports at file:line:col).
 *
 * `deno bench -A bench/packs_load_bench.ts` (deno bench's p50), or
 * `deno run -A bench/packs_load_bench.ts` for the medians of 40 loads after a warm-up.
 *
 * @module
 */
import { join } from "node:path";
import { GuardApprovals, Packs } from "../core/mod.ts";
import { programLoader } from "../stdlib-harness/mod.ts";
import { median, timeMany } from "./_stats.ts";

/** 50 top-level forms of every kind a bot's program registers. */
export function fiftyForms(): string {
  const forms: string[] = [];
  for (let i = 0; i < 10; i++) {
    forms.push(
      `(guard/shell :id 'g${i} :match "git *"\n  :middleware (lambda (raw invoke) (invoke raw)))`,
    );
    forms.push(`(hook/shell :id 'h${i} :post (lambda (c r) r))`);
    forms.push(
      `(define/tool 't${i} :kind 'tool :description "tool ${i}"\n` +
        `  :input (z/object (dict :x z/string)) :handler (lambda (i) (:x i)))`,
    );
    forms.push(`(define (helper${i} x) (string-append "h" (number->string x)))`);
    forms.push(i === 0 ? `(validate/configuration (lambda (c) #t))` : `(define v${i} ${i})`);
  }
  return forms.join("\n") + "\n";
}

function writePack(root: string, program: string): string {
  const dir = join(root, "packs", "fifty");
  Deno.mkdirSync(join(dir, "bots"), { recursive: true });
  Deno.writeTextFileSync(join(dir, "prog.scm"), program);
  Deno.writeTextFileSync(
    join(dir, "bots", "main.prompt"),
    "---\nattach: foreground\nbehavior:\n  program: ../prog.scm\n  configuration: {}\n---\nB.\n",
  );
  Deno.writeTextFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({
      name: "fifty",
      extensions: { "tools.inhuman": { bots: ["./bots/main.prompt"] } },
    }),
  );
  return dir;
}

const root = Deno.makeTempDirSync({ prefix: "hs-packs-load-bench-" });
const good = writePack(join(root, "good"), fiftyForms());
const broken = writePack(join(root, "broken"), fiftyForms().replace(/\)\n$/, "\n"));
const places = { workspace: root, home: root, userHome: root };

/** Loads the pack in `dir` as a harness does (its foreground bot attached, or refused). */
async function loadPack(dir: string): Promise<Packs> {
  const packs = new Packs({
    dirs: () => [{ dir, source: "bench" }],
    dataDir: join(root, "data"),
    approvals: new GuardApprovals(root),
    loader: programLoader,
    places,
    foregroundOff: new Set(),
    log: () => {},
  });
  await packs.load();
  return packs;
}

async function loadGood(): Promise<void> {
  const packs = await loadPack(good);
  const b = packs.bots()[0];
  if (b.status !== "awaiting approval" || b.pending.length !== 10) {
    throw new Error(`the pack did not load: ${b.status} ${b.reason ?? ""}`);
  }
}

async function loadBroken(): Promise<void> {
  const packs = await loadPack(broken);
  if (!packs.refusal()) throw new Error("the broken pack was not refused");
}

Deno.bench("pack load: 50 forms (10 guards hashed, 10 hooks, 10 tools, 20 more)", loadGood);
Deno.bench(
  "pack load error: 50 forms, the last list unclosed (refused with file:line:col)",
  loadBroken,
);

if (import.meta.main) {
  for (let i = 0; i < 5; i++) await loadGood();
  const ok = median(await timeMany(40, loadGood));
  const bad = median(await timeMany(40, loadBroken));
  console.log(`pack load, 50 forms: median ${ok.toFixed(2)} ms (target ≤ 20 ms)`);
  console.log(`pack load error, 50 forms: median ${bad.toFixed(2)} ms`);
}
