/**
 * Trust sees what a run changed (docs/security.md "Two kinds of paths"). hs
 * fingerprints the control paths when a run starts and when it ends; a
 * control file that changed in between — by anything the run started, except
 * a write the user approved at its ask — is recorded in
 * `$HARNESS_HOME/run-changes.json`, next to `trust.json`. No later run trusts
 * it without the user, `--trust-workspace` included: the `.harness` holding it
 * is held untrusted, and the CLI refuses headless (listing the files and the
 * `hs trust` command) or asks on a terminal. `hs trust` clears the records of
 * the workspaces it trusts. Changes the user makes between runs are not
 * recorded: they follow the ordinary trust rules.
 *
 * @module
 */
import { dirname, firstUse, join } from "../early/mod.ts";
import { z } from "zod";
import { atomicWriteSync, readTextOrUndefined, sha256Hex } from "../base/mod.ts";
import {
  AGENT_ROOMS,
  classifyPath,
  type ControlLayout,
  controlLayout,
  GIT_CONTROL,
} from "./control_paths.ts";

/** The record file's name in `$HARNESS_HOME`. */
export const RUN_CHANGES_FILE = "run-changes.json";

/** The record file's shape, built when a record file is first read. */
const RecordFile = firstUse(() =>
  z.object({
    version: z.literal(1).default(1),
    /** Control file → when a run changed it and the workspace that run was in. */
    changed: z.record(z.string(), z.object({ at: z.string(), workspace: z.string() })).default({}),
  })
);
type Records = z.infer<ReturnType<typeof RecordFile>>;

/** One control file a run changed. */
export interface RunChange {
  /** The control file (absolute). */
  file: string;
  /** The workspace of the run that changed it. */
  workspace: string;
  /** When the run ended. */
  at: string;
  /** The `.harness` directory holding it, if it is inside one. */
  harnessDir?: string;
}

const MAX_FILES = 5000;
const CONTENT_BUDGET = 16 * 1024 * 1024;
/** Bodies up to this size are hashed in this thread (no async round trip per small file). */
const SYNC_HASH_MAX = 64 * 1024;

function lstat(p: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Every file (or link) under the control paths of a layout, with its lstat. */
function controlFilesOf(layout: ControlLayout): [string, Deno.FileInfo][] {
  const out: [string, Deno.FileInfo][] = [];
  const visit = (p: string, skip: (child: string) => boolean) => {
    if (out.length >= MAX_FILES) return;
    const info = lstat(p);
    if (!info) return;
    if (!info.isDirectory) {
      out.push([p, info]);
      return;
    }
    let names: string[];
    try {
      names = [...Deno.readDirSync(p)].map((e) => e.name).sort();
    } catch {
      return;
    }
    for (const n of names) if (!skip(join(p, n))) visit(join(p, n), skip);
  };
  for (const h of layout.harnessDirs) {
    // hs's own sessions are written by hs during the run (they are read-only to tools)
    const rooms = [...AGENT_ROOMS, "sessions"].map((r) => join(h, r));
    visit(h, (c) => rooms.includes(c));
  }
  for (const o of layout.others) visit(o, () => false);
  // a `.git` made during the run: its control parts
  if (layout.missingGit) {
    for (const n of GIT_CONTROL) {
      visit(join(layout.missingGit, n), () => false);
    }
  }
  return out;
}

/** File → fingerprint (mode, and content or link target) of the control paths. */
export async function controlSnapshot(layout: ControlLayout): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let budget = CONTENT_BUDGET;
  const enc = new TextEncoder();
  for (const [f, info] of controlFilesOf(layout)) {
    let body: Uint8Array;
    if (info.isSymlink) {
      body = enc.encode(`link:${Deno.readLinkSync(f)}`);
    } else if (info.size <= budget) {
      budget -= info.size;
      try {
        body = Deno.readFileSync(f);
      } catch {
        body = enc.encode("<unreadable>");
      }
    } else body = enc.encode(`${info.size}:${info.mtime?.getTime() ?? 0}`);
    const head = enc.encode(`${info.mode ?? 0}\0`);
    const all = new Uint8Array(head.length + body.length);
    all.set(head);
    all.set(body, head.length);
    out.set(f, all.length <= SYNC_HASH_MAX ? sha256Hex(all) : await webSha256(all));
  }
  return out;
}

/** SHA-256 (hex) through Web Crypto (large bodies). */
async function webSha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function readRecords(home: string): Records {
  const text = readTextOrUndefined(join(home, RUN_CHANGES_FILE));
  if (text === undefined) return { version: 1, changed: {} };
  try {
    return RecordFile().parse(JSON.parse(text));
  } catch {
    // unreadable records hold nothing back silently: every control file counts as changed
    return { version: 1, changed: { [join(home, RUN_CHANGES_FILE)]: { at: "?", workspace: "/" } } };
  }
}

function writeRecords(home: string, r: Records): void {
  Deno.mkdirSync(home, { recursive: true });
  atomicWriteSync(join(home, RUN_CHANGES_FILE), JSON.stringify(r, null, 2) + "\n", {
    mode: 0o600,
  });
}

/**
 * The recorded changes that concern a workspace's control paths (`layout`: the workspace's
 * control layout, when the caller has it already).
 */
export function pendingRunChanges(
  home: string,
  workspace: string,
  layout: ControlLayout = controlLayout({ workspace, home }),
): RunChange[] {
  const r = readRecords(home);
  const out: RunChange[] = [];
  for (const [file, e] of Object.entries(r.changed)) {
    const c = file === join(home, RUN_CHANGES_FILE) ? undefined : classifyPath(file, layout);
    if (!c && file !== join(home, RUN_CHANGES_FILE)) continue;
    const harnessDir = layout.harnessDirs.find((h) => c?.root === h);
    out.push({ file, workspace: e.workspace, at: e.at, harnessDir });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** Forgets the recorded changes under the given workspaces (the user trusted them again). */
export function clearRunChanges(home: string, workspaces: string[]): void {
  const r = readRecords(home);
  const covered = (f: string) =>
    workspaces.some((w) => f === w || f.startsWith(w.endsWith("/") ? w : w + "/"));
  const keep = Object.entries(r.changed).filter(([f]) =>
    f !== join(home, RUN_CHANGES_FILE) && !covered(f)
  );
  if (keep.length === Object.keys(r.changed).length) return;
  writeRecords(home, { version: 1, changed: Object.fromEntries(keep) });
}

/** What a run's end needs to know of the floor. */
export interface RunActivity {
  /** Tool calls decided (0: the agent did nothing, so nothing it did changed a file). */
  toolCalls: number;
  /** Real paths the user approved writing at their ask. */
  approvedControlWrites(): string[];
}

/** The fingerprints of one run's control paths, taken at its start. */
export class RunWatch {
  readonly #layout: ControlLayout;
  readonly #home: string;
  readonly #workspace: string;
  readonly #before: Map<string, string>;

  private constructor(
    layout: ControlLayout,
    home: string,
    ws: string,
    before: Map<string, string>,
  ) {
    this.#layout = layout;
    this.#home = home;
    this.#workspace = ws;
    this.#before = before;
  }

  /** Fingerprints the control paths of a workspace at a run's start. */
  static async start(
    workspace: string,
    home: string,
    layout: ControlLayout = controlLayout({ workspace, home }),
  ): Promise<RunWatch> {
    return new RunWatch(layout, home, workspace, await controlSnapshot(layout));
  }

  /**
   * Fingerprints them again at the run's end and records what changed (the user's
   * approved writes excepted). Returns the files recorded.
   */
  async finish(activity: RunActivity | undefined): Promise<string[]> {
    if (!activity || activity.toolCalls === 0) return [];
    const after = await controlSnapshot(this.#layout);
    const approved = new Set(activity.approvedControlWrites());
    const changed: string[] = [];
    for (const f of new Set([...this.#before.keys(), ...after.keys()])) {
      if (this.#before.get(f) !== after.get(f) && !approved.has(f)) changed.push(f);
    }
    if (changed.length === 0) return [];
    const r = readRecords(this.#home);
    const at = new Date().toISOString();
    for (const f of changed) r.changed[f] = { at, workspace: this.#workspace };
    writeRecords(this.#home, r);
    return changed;
  }
}

/** The `.harness` directories holding recorded changes (to hold untrusted). */
export function heldHarnessDirs(changes: RunChange[]): string[] {
  return [...new Set(changes.flatMap((c) => (c.harnessDir ? [c.harnessDir] : [])))];
}

/** The workspace a `.harness` directory or control file belongs to, for `hs trust <it>`. */
export function trustTargetOf(c: RunChange): string {
  return c.harnessDir ? dirname(c.harnessDir) : c.workspace;
}

/**
 * A run's start: holds the `.harness` directories earlier runs changed untrusted (the CLI
 * asks or refuses about them) and fingerprints the control paths.
 */
export async function watchRun(
  trust: { hold(dirs: string[]): void },
  workspace: string,
  home: string,
): Promise<RunWatch> {
  const layout = controlLayout({ workspace, home });
  trust.hold(heldHarnessDirs(pendingRunChanges(home, workspace, layout)));
  return await RunWatch.start(workspace, home, layout);
}
