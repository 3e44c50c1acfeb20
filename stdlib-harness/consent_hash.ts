/**
 * A guard's consent hash (seed 000 §7): its declaration (id, point, matchers, capability,
 * contract, reentrant depth) and everything its handler can reach in the pack — the guard's
 * top-level form and, transitively, every top-level form defining a name a reached form
 * mentions or that may change one (a `set!`, a touch of a value, itself or through what it
 * calls), in the entry file and in the files it `require`s, each with its file
 * (scheme/analysis). When what it reaches calls `(configuration)`, the
 * bot's configuration is hashed too; when it can evaluate data (`eval`), the whole program.
 *
 * An edit of a helper the guard calls changes the hash; an edit of a procedure it cannot
 * reach does not. Comments and layout never do (forms are hashed as `write` prints them).
 *
 * @module
 */
import { canonicalJson } from "../core/mod.ts";
import { type Json, ProgramFacts, toStr, write } from "../scheme/mod.ts";
import type { GuardDecl } from "./forms.ts";

/** One top-level form of a program, in load order. */
export interface ProgramForm {
  /** The form as read. */
  datum: unknown;
  /** Its file, relative to the pack root. */
  file: string;
}

/** A guard and the index of the top-level form that declared it. */
export interface DeclaredGuard {
  decl: GuardDecl;
  /** Index into the program's forms. */
  form: number;
}

/** Forms of the harness that bind a quoted name globally (`(define/tool 'name :kind 'procedure …)`). */
const QUOTED_DEFINERS: ReadonlySet<string> = new Set(["define/tool"]);

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The text a guard's consent hash is the digest of. */
export function consentText(
  facts: ProgramFacts,
  forms: ProgramForm[],
  g: DeclaredGuard,
  configuration: Json,
  source: (i: number) => string,
): string {
  const reach = facts.reach([g.form]);
  return JSON.stringify({
    id: g.decl.id,
    point: g.decl.point,
    match: g.decl.match,
    capabilities: g.decl.capabilities,
    contract: g.decl.contract ?? null,
    reentrantDepth: g.decl.reentrantDepth,
    reach: reach.forms.map((i) => [forms[i].file, source(i)]),
    configuration: reach.mentions.has("configuration") ? canonicalJson(configuration) : null,
  });
}

/** The consent hash (SHA-256, hex) of each guard, in order. */
export function consentHashes(
  forms: ProgramForm[],
  guards: DeclaredGuard[],
  configuration: Json = {},
): Promise<string[]> {
  if (guards.length === 0) return Promise.resolve([]);
  const facts = new ProgramFacts(forms.map((f) => f.datum), { quotedDefiners: QUOTED_DEFINERS });
  const printed = new Map<number, string>();
  const source = (i: number) => {
    let s = printed.get(i);
    // as `write` prints it; a form without shared structure has no cycle to look for
    const datum = forms[i].datum;
    if (s === undefined) {
      printed.set(i, s = facts.factsOf(i).shared ? write(datum) : toStr(datum, "simple"));
    }
    return s;
  };
  return Promise.all(
    guards.map((g) => sha256(consentText(facts, forms, g, configuration, source))),
  );
}
