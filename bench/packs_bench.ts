/**
 * Behavior packs: the cost of loading a pack (10 bots, 20 guards — every bot its own
 * interpreter, every guard hashed) and the overhead a Scheme guard adds to a dispatch
 * over a TypeScript guard doing the same (pass-through invoke).
 *
 * `deno bench -A bench/packs_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import {
  Dispatcher,
  type EffectCall,
  type Guard,
  GuardApprovals,
  Packs,
  textResult,
} from "../core/mod.ts";
import { loadProgram, programLoader, seamGuard } from "../stdlib-harness/mod.ts";

const root = Deno.makeTempDirSync({ prefix: "hs-packs-bench-" });
const packDir = join(root, "packs", "big");
Deno.mkdirSync(join(packDir, "bots"), { recursive: true });
const program = Array.from(
  { length: 2 },
  (_, i) =>
    `(guard/shell :id 'g${i} :match "git *" :middleware (lambda (raw invoke) (invoke raw)))`,
).join("\n") +
  `\n(hook/shell :post (lambda (c r) r))\n(define/tool 'note${0} :kind 'tool :description "d" :input (z/object (dict :x z/string)) :handler (lambda (i) "ok"))\n`;
Deno.writeTextFileSync(join(packDir, "prog.scm"), program);
const bots: string[] = [];
for (let i = 0; i < 10; i++) {
  Deno.writeTextFileSync(
    join(packDir, "bots", `bot${i}.prompt`),
    `---\n${
      i === 0 ? "attach: foreground" : "scope: session"
    }\nbehavior:\n  program: ../prog.scm\n---\nBot ${i}.\n`,
  );
  bots.push(`./bots/bot${i}.prompt`);
}
Deno.writeTextFileSync(
  join(packDir, "plugin.json"),
  JSON.stringify({ name: "big", extensions: { "tools.inhuman": { bots } } }),
);
const places = { workspace: root, home: root, userHome: root };

Deno.bench("pack load: 10 bots (each its own interpreter), 20 guards hashed", async () => {
  const packs = new Packs({
    dirs: () => [{ dir: packDir, source: "bench" }],
    dataDir: join(root, "data"),
    approvals: new GuardApprovals(root),
    loader: programLoader,
    places,
    foregroundOff: new Set(),
    log: () => {},
  });
  await packs.load();
  await packs.loadNamed();
  if (packs.bots().length !== 10) throw new Error("bots missing");
});

const call: EffectCall = {
  point: "shell",
  tool: "bash",
  owner: { kind: "builtin", id: "core-tools" },
  principal: "main",
  callId: "c",
  input: { command: "git status" },
};
const core = () => Promise.resolve(textResult("ok"));
const floor = { decide: () => ({ decision: "allow" as const, rule: "bench" }) };
const dispatcherWith = (guards: Guard[]) =>
  new Dispatcher({ guards: () => guards, hooks: () => [], floor, audit: () => {} });

const tsGuard: Guard = {
  id: "ts",
  point: "shell",
  match: (c) => c.principal === "main",
  middleware: (raw, invoke) => invoke(raw),
};
const loaded = await loadProgram({ file: join(packDir, "prog.scm"), root: packDir });
const schemeGuard = seamGuard(loaded.interpreter, loaded.registrations.guards[0], {
  appliesTo: (p) => p === "main",
  places,
  owner: "bench",
});
const none = dispatcherWith([]);
const ts = dispatcherWith([tsGuard]);
const scheme = dispatcherWith([schemeGuard]);

Deno.bench("dispatch, no guard", { group: "guard", baseline: true }, async () => {
  await none.dispatch(call, core);
});
Deno.bench("dispatch, one TypeScript guard (pass-through)", { group: "guard" }, async () => {
  await ts.dispatch(call, core);
});
Deno.bench(
  "dispatch, one Scheme guard (pass-through, glob matched)",
  { group: "guard" },
  async () => {
    await scheme.dispatch(call, core);
  },
);
