/**
 * Guard consent (seed 000 §7): every guard is hashed from its declaration
 * id, point, matchers, capability, contract and handler source; the host
 * stores the approvals in `$HARNESS_HOME/guard-approvals.json`. An unchanged
 * hash never prompts; every new or changed hash does — for unverified,
 * private and signed packages alike, and for a source-only change. An
 * unapproved guard is a load error. Nothing a pack can call records an
 * approval: only the person at the terminal (`hs packs approve`, or the
 * prompt) does, and tools may not write the file (a protected control file).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { z } from "zod";
import { atomicWriteSync, HarnessError, readOwnText } from "../base/mod.ts";

/** The review policy: prompt on any hash change, silent for an unchanged hash. */
export const GUARD_REVIEW_POLICY = "prompt-on-any-hash-change" as const;

/** A guard waiting for (or given) approval. */
export interface GuardConsent {
  /** Hash of the guard's declaration (a change asks for approval again). */
  hash: string;
  /** The pack's name. */
  pack: string;
  /** The bot whose behavior declares the guard. */
  bot: string;
  /** The guard's name. */
  guard: string;
  /** The effect point it guards. */
  point: string;
  /** Where it is declared (file:line:col). */
  loc: string;
}

const buildFileSchema = () =>
  z.object({
    version: z.literal(1).default(1),
    approved: z.record(
      z.string(),
      z.object({ pack: z.string(), bot: z.string(), guard: z.string(), at: z.string() }),
    ).default({}),
  });
let fileSchema: ReturnType<typeof buildFileSchema> | undefined;
/** The approvals file's schema, built on first use (only an approvals file is parsed with it). */
const FileSchema = () => fileSchema ??= buildFileSchema();

/** Reads and writes the approvals. */
export class GuardApprovals {
  /** The approvals file (`guard-approvals.json` in the harness home). */
  readonly path: string;
  #approved: Set<string>;

  /** Opens the approvals of the harness home `home`. */
  constructor(home: string) {
    this.path = join(home, "guard-approvals.json");
    this.#approved = new Set(Object.keys(this.#read().approved));
  }

  #read(): z.infer<ReturnType<typeof buildFileSchema>> {
    const text = readOwnText(this.path); // never through a link (reported; nothing approved)
    if (text === undefined) return { version: 1, approved: {} };
    try {
      return FileSchema().parse(JSON.parse(text));
    } catch {
      throw new HarnessError(
        `${this.path} is not valid`,
        "fix or delete it, then approve the guards again: hs packs approve",
      );
    }
  }

  /** True when this exact guard (by hash) was approved. */
  isApproved(hash: string): boolean {
    return this.#approved.has(hash);
  }

  /** Records approvals (called by the CLI for the person at the terminal). */
  approve(guards: GuardConsent[]): void {
    const data = this.#read();
    for (const g of guards) {
      data.approved[g.hash] = {
        pack: g.pack,
        bot: g.bot,
        guard: g.guard,
        at: new Date().toISOString(),
      };
      this.#approved.add(g.hash);
    }
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteSync(this.path, JSON.stringify(data, null, 2) + "\n", { mode: 0o600 });
  }
}
