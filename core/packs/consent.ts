/**
 * Guard consent (seed 000 §7): an approval is one pack's, one bot's, one guard's (by
 * declaration id), for one hash of the guard's declaration (point, matchers, capability,
 * contract) and of everything its handler can reach in the pack (the loader computes it);
 * the host stores the approvals in `$HARNESS_HOME/guard-approvals.json`. An unchanged hash
 * never prompts; every new or changed hash does — for unverified, private and signed
 * packages alike, and for a source-only change — and a byte-identical guard of another pack
 * or bot is not approved by this one's approval. An unapproved guard is a load error. Nothing a pack can call records an
 * approval: only the person at the terminal (`hs packs approve`, or the
 * prompt) does, and tools may not write the file (a protected control file).
 *
 * @module
 */
import { dirname, join } from "../early/mod.ts";
import { z } from "zod";
import { atomicWriteSync, HarnessError, readOwnText } from "../base/mod.ts";

/** The review policy: prompt on any hash change, silent for an unchanged hash. */
export const GUARD_REVIEW_POLICY = "prompt-on-any-hash-change" as const;

/** A guard waiting for (or given) approval. */
export interface GuardConsent {
  /** Hash of the guard's declaration and of what its handler reaches (a change asks again). */
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

/** One stored approval. */
const entrySchema = () =>
  z.object({
    pack: z.string(),
    bot: z.string(),
    guard: z.string(),
    hash: z.string(),
    at: z.string(),
  });
const buildFileSchema = () =>
  z.union([
    z.object({ version: z.literal(2), approved: z.array(entrySchema()).default([]) }),
    // the first format: approvals keyed by hash alone, not by pack, bot and guard; read (so
    // the file is not "invalid") but granting nothing: each of its guards asks once more
    z.object({ version: z.literal(1).default(1), approved: z.record(z.string(), z.unknown()) }),
  ]);
let fileSchema: ReturnType<typeof buildFileSchema> | undefined;
/** The approvals file's schema, built on first use (only an approvals file is parsed with it). */
const FileSchema = () => fileSchema ??= buildFileSchema();

/** A stored approval. */
type Entry = z.infer<ReturnType<typeof entrySchema>>;

/** The key of an approval: its pack, bot and guard. */
function keyOf(g: { pack: string; bot: string; guard: string }): string {
  return JSON.stringify([g.pack, g.bot, g.guard]);
}

/** Reads and writes the approvals. */
export class GuardApprovals {
  /** The approvals file (`guard-approvals.json` in the harness home). */
  readonly path: string;
  #approved: Map<string, Entry>;

  /** Opens the approvals of the harness home `home`. */
  constructor(home: string) {
    this.path = join(home, "guard-approvals.json");
    this.#approved = this.#read();
  }

  #read(): Map<string, Entry> {
    const text = readOwnText(this.path); // never through a link (reported; nothing approved)
    const out = new Map<string, Entry>();
    if (text === undefined) return out;
    let data: z.infer<ReturnType<typeof buildFileSchema>>;
    try {
      data = FileSchema().parse(JSON.parse(text));
    } catch {
      throw new HarnessError(
        `${this.path} is not valid`,
        "fix or delete it, then approve the guards again: hs packs approve",
      );
    }
    if (data.version === 2) { for (const e of data.approved) out.set(keyOf(e), e); }
    return out;
  }

  /** True when this guard of this pack and bot was approved with this hash. */
  isApproved(g: Pick<GuardConsent, "pack" | "bot" | "guard" | "hash">): boolean {
    return this.#approved.get(keyOf(g))?.hash === g.hash;
  }

  /** Records approvals (called by the CLI for the person at the terminal). */
  approve(guards: GuardConsent[]): void {
    const approved = this.#read(); // what another hs recorded since
    const at = new Date().toISOString();
    for (const g of guards) {
      const e = { pack: g.pack, bot: g.bot, guard: g.guard, hash: g.hash, at };
      approved.set(keyOf(g), e);
    }
    this.#approved = approved;
    const data = { version: 2, approved: [...approved.values()] };
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteSync(this.path, JSON.stringify(data, null, 2) + "\n", { mode: 0o600 });
  }
}
