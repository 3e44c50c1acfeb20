/**
 * Fixtures of the pack-state benchmarks (issue 14): a trusted workspace whose `nb` pack has a
 * counter-like state at project scope (`items` query, `add` command) and a foreground bot
 * whose tools call it with `call/method` — one call, or a batch of calls inside one tool
 * call (to isolate `call/method` from the tool's own dispatch); and a 10,000-entry project log
 * written beside it for the reopen case.
 *
 * @module
 */
import { join } from "node:path";
import { Harness } from "../plugins/mod.ts"; // the kernel with its built-in plugins
import { type HarnessCore, StateHost, type ToolDefinition } from "../core/mod.ts";
import { stateLoader } from "../stdlib-harness/mod.ts";
import { writeLogDir } from "../core/session/mod.ts";

const STATE = `
(define/reducer
  :initial (lambda () (dict :count 0 :last ""))
  :reduce (lambda (s a) (dict-set s :count (+ 1 (:count s)) :last (:text a))))
(define/method 'items :kind 'query :input (z/object (dict)) :output z/any
  :handler (lambda (i s) (:count s)))
(define/method 'add :kind 'command :input (z/object (dict :text z/string)) :output z/integer
  :handler (lambda (i s) (state/propose (dict :type "add" :text (:text i))) (+ 1 (:count s))))
`;

const PROGRAM = `
(define/tool 'zero :kind 'tool :description "no call" :input (z/object (dict))
  :handler (lambda (i) 0))
(define/tool 'one :kind 'tool :description "one query" :input (z/object (dict))
  :handler (lambda (i) (call/method 'proj 'items (dict))))
(define/tool 'many :kind 'tool :description "n queries" :input (z/object (dict :n z/integer))
  :handler (lambda (i)
             (let loop ((k 0) (v 0))
               (if (< k (:n i)) (loop (+ k 1) (call/method 'proj 'items (dict))) v))))
(define/tool 'add :kind 'tool :description "one command" :input (z/object (dict))
  :handler (lambda (i) (call/method 'mine 'add (dict :text "x"))))
`;

/** A workspace with the `nb` pack and a harness on it. */
export interface StateBench {
  root: string;
  h: HarnessCore;
  tool(name: string): ToolDefinition;
  close(): Promise<void>;
}

/** Creates the workspace and opens a harness on it (packs loaded). */
export async function stateBench(): Promise<StateBench> {
  const root = Deno.makeTempDirSync({ prefix: "hs-state-bench-" });
  const home = join(root, "home");
  const ws = join(root, "ws");
  const pack = join(ws, ".harness/packs/nb");
  Deno.mkdirSync(join(pack, "bots"), { recursive: true });
  Deno.mkdirSync(home, { recursive: true });
  Deno.writeTextFileSync(
    join(home, "trust.json"),
    JSON.stringify({ version: 1, trusted: { [root]: { at: "bench" } } }),
  );
  Deno.writeTextFileSync(
    join(pack, "plugin.json"),
    JSON.stringify({
      name: "nb",
      extensions: {
        "tools.inhuman": {
          bots: ["./bots/main.prompt"],
          states: { project: "./state.scm", global: "./state.scm" },
        },
      },
    }),
  );
  Deno.writeTextFileSync(join(pack, "state.scm"), STATE);
  Deno.writeTextFileSync(join(pack, "main.scm"), PROGRAM);
  Deno.writeTextFileSync(
    join(pack, "bots/main.prompt"),
    "---\nattach: foreground\nbehavior:\n  program: ../main.scm\n  bindings:\n" +
      "    proj: { plugin: nb, scope: project, methods: [items] }\n" +
      "    mine: { plugin: nb, scope: global, methods: [add] }\n---\nBench.\n",
  );
  const h = await Harness.create({
    cwd: ws,
    env: { HARNESS_HOME: home, HOME: root, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    userPlugins: false,
  });
  await h.catalog.refreshSources();
  const tool = (name: string) => {
    const t = h.packs.tools().find((x) => x.def.name === name);
    if (!t) {
      throw new Error(`no tool ${name}: ${JSON.stringify(h.packs.bots().map((b) => b.status))}`);
    }
    return t.def;
  };
  return {
    root,
    h,
    tool,
    async close() {
      await h.close();
      Deno.removeSync(root, { recursive: true });
    },
  };
}

/** Writes a project log of `n` entries for `nb` in the workspace's harness home; its directory. */
export function writeProjectLog(b: StateBench, n: number): string {
  const dir = b.h.packs.states.logDir("nb", "project");
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch { /* none yet */ }
  const entries = Array.from({ length: n }, (_, i) => ({
    at: "2026-12-01T00:00:00Z",
    by: "method",
    method: "add",
    actions: [{ type: "add", text: `entry ${i}` }],
  }));
  writeLogDir(dir, entries, true);
  return dir;
}

/** A fresh state host on the same home and project: what a restarted harness opens. */
export function freshStates(b: StateBench): StateHost {
  const manifest = b.h.packs.list().find((p) => p.manifest?.name === "nb")?.manifest;
  if (!manifest) throw new Error("the nb pack did not load");
  return new StateHost({
    home: b.h.paths.home,
    project: b.h.packs.states.project,
    loader: stateLoader,
    manifest: () => manifest,
    log: () => {},
  });
}
