/**
 * Workspace trust (PROTOCOLS "Trust"): executables and packs in a project's
 * `.harness/` run code, so they load only once the workspace is trusted. The
 * answers live in `$HARNESS_HOME/trust.json`; a trusted directory trusts
 * everything below it (files the agent writes inside stay trusted).
 *
 * Trusting also records the fingerprint of each `.harness/` directory's
 * control files (see `control.ts`). {@link TrustStore.verify} compares them at
 * start-up: a `.harness/` whose control files changed since is not trusted
 * until the user answers again — a tool that rewrites `.harness/floor.json`
 * cannot quietly change the next run.
 *
 * @module
 */
import { dirname, join, resolve, sep } from "../early/mod.ts";
import { z } from "zod";
import { atomicWriteSync, HarnessError, readOwnTextOrWhy, sessionsDirStamp } from "../base/mod.ts";
import { controlFingerprint } from "./control.ts";
import { McpApprovals } from "./project_mcp.ts";

const TrustFile = z.object({
  version: z.literal(1).default(1),
  trusted: z.record(
    z.string(),
    z.object({
      at: z.string(),
      /** `.harness` directory → fingerprint of its control files when trust was given. */
      control: z.record(z.string(), z.string()).optional(),
      /**
       * Workspace `.harness/sessions` directories that existed when trust was given →
       * their `dev:ino` (core/base sessions_place.ts: only these hold sessions).
       */
      sessions: z.record(z.string(), z.string()).optional(),
    }),
  ).default({}),
});

type TrustData = z.infer<typeof TrustFile>;

/** A `.harness/` directory whose control files changed since it was trusted. */
export interface ChangedControl {
  /** The `.harness` directory. */
  harnessDir: string;
  /** The workspace it belongs to (its parent). */
  workspace: string;
}

/** Reads and writes `$HARNESS_HOME/trust.json`. */
export class TrustStore {
  /** The trust file (`trust.json` in the harness home). */
  readonly path: string;
  /** The approvals of `.mcp.json` servers (`mcp-approvals.json` next to `trust.json`). */
  readonly mcp: McpApprovals;
  #data: TrustData;
  /** Directories trusted for this process only (`--trust-workspace`). */
  #session = new Set<string>();
  /** `.harness` directories whose control files changed (not trusted until answered). */
  #changed = new Map<string, ChangedControl>();
  /** `.harness` directories a run changed (see `run_changes.ts`): untrusted, whatever else says. */
  #held = new Set<string>();

  /** Opens the trust file of the harness home `home`. */
  constructor(home: string) {
    this.path = join(home, "trust.json");
    this.mcp = new McpApprovals(home);
    this.#data = this.#read();
  }

  #read(): TrustData {
    // never through a link: a refused trust.json (reported) trusts nothing
    const read = readOwnTextOrWhy(this.path);
    if (!("text" in read)) return { version: 1, trusted: {} };
    try {
      return TrustFile.parse(JSON.parse(read.text));
    } catch {
      throw new HarnessError(
        `trust file ${this.path} is not valid`,
        `fix or delete it, then run: hs trust <path>`,
      );
    }
  }

  /** The persistently trusted workspace covering a directory, if any. */
  #trustedRoot(workspace: string): string | undefined {
    for (const t of Object.keys(this.#data.trusted)) {
      if (workspace === t || workspace.startsWith(t.endsWith(sep) ? t : t + sep)) return t;
    }
    return undefined;
  }

  /** Is a `.harness` directory (or its workspace) trusted? */
  isTrusted(harnessDir: string): boolean {
    const dir = resolve(harnessDir);
    const workspace = dirname(dir);
    if (this.#held.has(dir)) return false;
    for (const t of this.#session) {
      if (workspace === t || workspace.startsWith(t.endsWith(sep) ? t : t + sep)) return true;
    }
    if (this.#changed.has(dir)) return false;
    return this.#trustedRoot(workspace) !== undefined;
  }

  /**
   * Checks the control files of trusted `.harness` directories against the fingerprints
   * recorded when trust was given. A `.harness` below a trusted workspace that had no
   * control files then and has some now counts as changed too. Entries written before
   * fingerprints existed carry none and are not checked (`hs trust` records them).
   * Returns the directories that changed (they stay untrusted in this process).
   */
  async verify(harnessDirs: string[]): Promise<ChangedControl[]> {
    for (const raw of harnessDirs) {
      const dir = resolve(raw);
      const root = this.#trustedRoot(dirname(dir));
      if (!root) continue;
      const recorded = this.#data.trusted[root].control;
      if (!recorded) continue;
      const now = await controlFingerprint(dir);
      if ((recorded[dir] ?? "") !== now) {
        this.#changed.set(dir, { harnessDir: dir, workspace: dirname(dir) });
      }
    }
    return [...this.#changed.values()];
  }

  /** True when a trusted workspace has no recorded fingerprints (trusted by an older hs). */
  unverified(workspace: string): boolean {
    const root = this.#trustedRoot(resolve(workspace));
    return root !== undefined && this.#data.trusted[root].control === undefined;
  }

  /** `.harness` directories found changed by {@link verify}. */
  changed(): ChangedControl[] {
    return [...this.#changed.values()];
  }

  /** Holds `.harness` directories untrusted, `--trust-workspace` included, until {@link release}. */
  hold(harnessDirs: string[]): void {
    for (const d of harnessDirs) this.#held.add(resolve(d));
  }

  /** Lets held directories follow the ordinary rules again (the user answered). */
  release(harnessDirs: string[]): void {
    for (const d of harnessDirs) this.#held.delete(resolve(d));
  }

  /** Trusts a workspace for this process only (its `.mcp.json` servers approved for it too). */
  trustForSession(workspace: string): void {
    this.#session.add(resolve(workspace));
    this.mcp.approveForRun(workspace);
  }

  /**
   * Trusts workspaces persistently, recording the fingerprints of the given `.harness`
   * directories (those of the walk that the answer covers).
   */
  async trust(workspaces: string[], harnessDirs: string[] = []): Promise<void> {
    this.#data = this.#read();
    for (const w of workspaces) {
      const root = resolve(w);
      const prev = this.#data.trusted[root];
      this.#data.trusted[root] = {
        at: new Date().toISOString(),
        control: prev?.control,
        sessions: prev?.sessions,
      };
    }
    for (const raw of harnessDirs) {
      const dir = resolve(raw);
      const root = this.#trustedRoot(dirname(dir));
      if (!root) continue;
      const entry = this.#data.trusted[root];
      entry.control = { ...entry.control, [dir]: await controlFingerprint(dir) };
      const stamp = sessionsDirStamp(join(dir, "sessions"));
      if (stamp) entry.sessions = { ...entry.sessions, [join(dir, "sessions")]: stamp };
      this.#changed.delete(dir);
    }
    this.#write();
  }

  #write(): void {
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteSync(this.path, JSON.stringify(this.#data, null, 2) + "\n", { mode: 0o600 });
  }

  /** Every persistently trusted workspace. */
  list(): string[] {
    return Object.keys(this.#data.trusted).sort();
  }
}
