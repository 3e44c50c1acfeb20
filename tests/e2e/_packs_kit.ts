/**
 * Shared fixtures of the behavior-pack II tests (state, methods, notes, commands, rewind):
 * a workspace with a scripted model and a pack written from text, and readers of the
 * CLI's `--events` output.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedTurn } from "../../plugins/scripted/mod.ts";
import {
  hsArgs,
  type LoopbackWorkspace,
  loopbackWorkspace,
  plainBody,
  runHs,
  writeFile,
} from "../support/workspace.ts";

/** The `nb` notebook state module: items, a host-only seal, and ways to break the rules. */
export const NOTEBOOK = `
(define/reducer
  :initial (lambda () (dict :items (vector) :sealed ""))
  :reduce (lambda (s a)
            (let ((type (:type a)))
              (cond ((equal? type "add") (dict-set s :items (vector-append (:items s) (vector (:text a)))))
                    ((equal? type "seal") (dict-set s :sealed (:text a)))
                    ((equal? type "loud") (display "I/O in a reducer") s)
                    ((equal? type "notify") (self/notify "from a reducer") s)
                    ((equal? type "propose") (state/propose (dict :type "add" :text "again")) s)
                    ((equal? type "call") (call/method 'notes 'items (dict)) s)
                    (else s))))
  :host-only (lambda (a) (equal? (:type a) "seal")))
(define/method 'items :kind 'query :input (z/object (dict)) :output z/any
  :handler (lambda (i s) s))
(define/method 'add :kind 'command :input (z/object (dict :text z/string)) :output z/integer
  :handler (lambda (i s) (state/propose (dict :type "add" :text (:text i)))
                         (+ 1 (vector-length (:items s)))))
(define/method 'sneak :kind 'query :input (z/object (dict)) :output z/integer
  :handler (lambda (i s) (state/propose (dict :type "add" :text "sneaked")) 0))
(define/method 'seal :kind 'command :input (z/object (dict :text z/string)) :output z/string
  :handler (lambda (i s) (state/propose (dict :type "seal" :text (:text i))) "sealed"))
(define/method 'impure :kind 'command :input (z/object (dict :what z/string)) :output z/string
  :handler (lambda (i s) (state/propose (dict :type (:what i))) "proposed"))
(define/method 'shout :kind 'command :input (z/object (dict)) :output z/string
  :handler (lambda (i s) (self/notify "from a method") "shouted"))
(define/method 'wrong :kind 'query :input (z/object (dict)) :output z/integer
  :handler (lambda (i s) "not a number"))
`;

/** A bot program whose `nb_call` tool calls any binding's method (for the admission tests). */
export const CALLER = `
(define/tool 'nb_call :kind 'tool :description "call a method"
  :input (z/object (dict :binding z/string :method z/string :input z/any
                         :abi (z/optional z/integer) :widen (z/optional z/boolean)
                         :callid (z/optional z/string)))
  :handler (lambda (i)
             (let ((b (string->symbol (:binding i))) (m (string->symbol (:method i))))
               (cond ((dict-has? i "widen")
                      (call/method b m (:input i) :plugin "other" :scope 'global))
                     ((dict-has? i "abi") (call/method b m (:input i) :abi (:abi i)))
                     ((dict-has? i "callid") (call/method b m (:input i) :call-id (:callid i)))
                     (else (call/method b m (:input i)))))))
`;

/** Bindings of the caller bot to the `nb` states. */
export const BINDINGS = `  bindings:
    notes:
      plugin: nb
      scope: session
      methods: [items, add, sneak, seal, impure, shout, wrong]
    few:
      plugin: nb
      scope: session
      methods: [items]
    proj:
      plugin: nb
      scope: project
      methods: [items, add]
    glob:
      plugin: nb
      scope: global
      methods: [items, add]
`;

/** A pack to write: its name and files (relative to the pack root). */
export interface PackFiles {
  name: string;
  files: Record<string, string>;
}

/** The `nb` pack: the notebook at every scope and a foreground bot running `program`. */
export function notebookPack(program = CALLER, extraFront = BINDINGS): PackFiles {
  return {
    name: "nb",
    files: {
      "plugin.json": JSON.stringify({
        name: "nb",
        version: "1.0.0",
        extensions: {
          "tools.inhuman": {
            bots: ["./bots/main.prompt"],
            states: {
              session: "./notebook.scm",
              project: "./notebook.scm",
              global: "./notebook.scm",
            },
          },
        },
      }),
      "notebook.scm": NOTEBOOK,
      "bots/main.prompt":
        `---\nattach: foreground\nbehavior:\n  program: ../main.scm\n${extraFront}---\nNotebook bot.\n`,
      "main.scm": program,
    },
  };
}

/** Writes a pack under a `.harness/packs/` (or any directory). */
export async function writePack(dir: string, pack: PackFiles): Promise<string> {
  const root = join(dir, pack.name);
  for (const [name, text] of Object.entries(pack.files)) await writeFile(join(root, name), text);
  return root;
}

/** A scripted workspace with packs in its `.harness/packs/`, their guards approved. */
export async function packsWorkspace(
  script: ScriptedTurn[],
  packs: PackFiles[],
): Promise<LoopbackWorkspace> {
  const t = await loopbackWorkspace(script);
  for (const p of packs) await writePack(join(t.w.ws, ".harness/packs"), p);
  const ok = await runHs(["packs", "approve"], { cwd: t.w.ws, env: t.w.env });
  assert.equal(ok.code, 0, ok.stderr);
  return t;
}

/** Parsed `--events` lines. */
// deno-lint-ignore no-explicit-any
export function events(stdout: string): any[] {
  return stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
}

/** Tool results by call id, from `--events` output. */
export function results(stdout: string): Map<string, { result: string; error: boolean }> {
  return new Map(
    events(stdout).filter((e) => e.type === "tool_done").map((e) => [e.id, e]),
  );
}

/** One tool call of the scripted model. */
export function call(id: string, name: string, input: unknown): ScriptedTurn {
  return { toolCalls: [{ id, name, input }] };
}

/** A request's system prompt and its last message's text. */
export function requestOf(t: LoopbackWorkspace, i: number): { system: string; last: string } {
  const raw = t.server.requests[i]?.body;
  assert.ok(raw, `request ${i} was made`);
  // read without the prompt-cache marks: a system prompt of text blocks is one string again
  const body = plainBody<{ system?: string; messages?: { role: string; content: unknown }[] }>(raw);
  const last = body.messages?.at(-1);
  const content = last?.content;
  return {
    system: body.system ?? "",
    last: typeof content === "string" ? content : JSON.stringify(content ?? ""),
  };
}

/**
 * Runs `deno task hs …` and sends SIGINT once `ready()` holds (polled), `afterMs` later; the
 * output and exit code.
 */
export async function runHsInterrupted(
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
  ready: () => boolean,
  afterMs = 300,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [...hsArgs(), ...args],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = new Response(child.stdout).text();
  const err = new Response(child.stderr).text();
  const deadline = Date.now() + 60_000;
  while (!ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, afterMs));
  try {
    child.kill("SIGINT");
  } catch { /* exited */ }
  const status = await child.status;
  return { code: status.code, stdout: await out, stderr: await err };
}
