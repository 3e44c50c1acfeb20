/**
 * Workspace trust (PROTOCOLS "Trust"): executables and packs in a project's
 * `.harness/` run code, so they load only once the workspace is trusted. The
 * answers live in `$HARNESS_HOME/trust.json`; a trusted directory trusts
 * everything below it (files the agent writes inside stay trusted).
 *
 * @module
 */
import { dirname, join, resolve, sep } from "node:path";
import { z } from "zod";
import { atomicWriteSync, readTextOrUndefined } from "../base/fsutil.ts";
import { HarnessError } from "../base/errors.ts";

const TrustFile = z.object({
  version: z.literal(1).default(1),
  trusted: z.record(z.string(), z.object({ at: z.string() })).default({}),
});

/** Reads and writes `$HARNESS_HOME/trust.json`. */
export class TrustStore {
  readonly path: string;
  #trusted: Set<string>;
  /** Directories trusted for this process only (`--trust-workspace`). */
  #session = new Set<string>();

  constructor(home: string) {
    this.path = join(home, "trust.json");
    const text = readTextOrUndefined(this.path);
    let parsed: z.infer<typeof TrustFile> = { version: 1, trusted: {} };
    if (text !== undefined) {
      try {
        parsed = TrustFile.parse(JSON.parse(text));
      } catch {
        throw new HarnessError(
          `trust file ${this.path} is not valid`,
          `fix or delete it, then run: hs trust <path>`,
        );
      }
    }
    this.#trusted = new Set(Object.keys(parsed.trusted));
  }

  /** Is a `.harness` directory (or its workspace) trusted? */
  isTrusted(harnessDir: string): boolean {
    const workspace = dirname(resolve(harnessDir));
    for (const set of [this.#trusted, this.#session]) {
      for (const t of set) {
        if (workspace === t || workspace.startsWith(t.endsWith(sep) ? t : t + sep)) return true;
      }
    }
    return false;
  }

  /** Trusts a workspace for this process only. */
  trustForSession(workspace: string): void {
    this.#session.add(resolve(workspace));
  }

  /** Trusts workspaces persistently. */
  trust(workspaces: string[]): void {
    const text = readTextOrUndefined(this.path);
    const data = text ? TrustFile.parse(JSON.parse(text)) : { version: 1 as const, trusted: {} };
    for (const w of workspaces) {
      data.trusted[resolve(w)] = { at: new Date().toISOString() };
      this.#trusted.add(resolve(w));
    }
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteSync(this.path, JSON.stringify(data, null, 2) + "\n", { mode: 0o600 });
  }

  /** Every persistently trusted workspace. */
  list(): string[] {
    return [...this.#trusted].sort();
  }
}
