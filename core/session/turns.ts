/**
 * Per-turn records, rewind and fork (seed 000 §5 "Each turn records the
 * session's logs when it ends, and a rewind restores the target turn's
 * record").
 *
 * When a turn ends, `<session>/turns/NNNN.json` records every file under
 * `messages/` and the revision of every session-scope state log
 * (`<session>/plugin-state/<pack>/`). Message files are treated generically:
 * whatever another part of the harness keeps there (compacted messages
 * included) is listed by name.
 *
 * A rewind to turn N loses nothing: message files, turn records and state
 * log entries after N are moved into `<session>/rewound/<stamp>-to-<N>/`
 * (same layout), from where {@link undoRewind} puts them back. Project and
 * global logs live outside the session and are never rolled back. A fork
 * copies a session as it stood at a turn into a new session.
 *
 * @module
 */
import { basename, join } from "../early/mod.ts";
import { HarnessError, isOwnDir, listDir, readOwnText, statOrUndefined } from "../base/mod.ts";
import { Session } from "./session.ts";
import { claimSessionId, isoSeconds, newSessionId } from "./session_dir.ts";
import { logDirRevision, readLogDir, writeAtomic, writeLogDir } from "./state_log.ts";

/** The record a turn leaves when it ends. */
export interface TurnRecord {
  /** 1 for the first turn of the session. */
  turn: number;
  /** When it ended (ISO 8601). */
  at: string;
  /** Every file under `messages/` when it ended, sorted. */
  messages: string[];
  /** Session-scope state logs: pack → revision. */
  logs: Record<string, number>;
  /** Private (in-memory) logs of the process that ran the turn: instance id → revision. */
  private?: Record<string, number>;
  /** True when the record was derived from the messages (a session without records). */
  derived?: boolean;
}

/** What a rewind moved aside, and where. */
export interface RewindResult {
  /** The turn the session now stands at. */
  turn: number;
  /** The turn it stood at before. */
  from: number;
  /** Where what was rewound away now lives (`<session>/rewound/…`). */
  aside: string;
  /** Message files moved aside. */
  messages: string[];
  /** Session logs rolled back: pack → [from, to] revision. */
  logs: Record<string, [number, number]>;
  /** Recorded message files that were no longer there. */
  missing: string[];
  /** The record restored. */
  record: TurnRecord;
}

const TURN_FILE = /^(\d{4,})\.json$/;

/** The session-scope log directory of a pack. */
export function sessionLogDir(sessionDir: string, pack: string): string {
  return join(sessionDir, "plugin-state", pack);
}

/** Revisions of every session-scope log of a session. */
export function sessionLogRevisions(sessionDir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const root = join(sessionDir, "plugin-state");
  for (const name of listDir(root)) {
    if (name.startsWith(".")) continue;
    if (!isOwnDir(join(root, name))) continue;
    out[name] = logDirRevision(join(root, name));
  }
  return out;
}

function messageFiles(sessionDir: string): string[] {
  return listDir(join(sessionDir, "messages")).filter((n) => !n.startsWith("."));
}

const plainName = (n: unknown) =>
  typeof n === "string" && n !== "" && n !== "." && n !== ".." && !/[/\\\0]/.test(n);

/** True when a record's message files and packs are plain names (no path, no `..`). */
function plainNames(r: TurnRecord): boolean {
  return typeof r === "object" && r !== null && Number.isInteger(r.turn) &&
    Array.isArray(r.messages) && r.messages.every(plainName) &&
    (r.logs === undefined ||
      (typeof r.logs === "object" && r.logs !== null && Object.keys(r.logs).every(plainName)));
}

/** The recorded turns of a session, oldest first. */
export function turnRecords(sessionDir: string): TurnRecord[] {
  const dir = join(sessionDir, "turns");
  const out: TurnRecord[] = [];
  for (const name of listDir(dir)) {
    if (!TURN_FILE.test(name)) continue;
    const text = readOwnText(join(dir, name));
    if (text === undefined) continue; // refused (a link) or gone: reported, skipped
    let record: TurnRecord | undefined;
    try {
      record = JSON.parse(text) as TurnRecord;
    } catch { /* reported below */ }
    // the names a record holds are joined to the session's folders: plain names only (a
    // record from an imported archive may not make a fork read or write outside the session)
    if (!record || !plainNames(record)) {
      throw new HarnessError(
        `${join(dir, name)} is not a turn record`,
        "move it aside; the turns before it stay usable",
      );
    }
    out.push(record);
  }
  return out.sort((a, b) => a.turn - b.turn);
}

/**
 * The turns of a session: its records, or — for a session written before records
 * existed — turns derived from its user messages (without state logs).
 */
export function sessionTurns(sessionDir: string): TurnRecord[] {
  const records = turnRecords(sessionDir);
  if (records.length > 0) return records;
  if (statOrUndefined(join(sessionDir, "plugin-state"))?.isDirectory) return [];
  const files = messageFiles(sessionDir).sort((a, b) =>
    Number.parseInt(a, 10) - Number.parseInt(b, 10) || (a < b ? -1 : 1)
  );
  const out: TurnRecord[] = [];
  const starts = files.flatMap((f, i) => /^\d+-user\.md$/.test(f) ? [i] : []);
  for (let t = 0; t < starts.length; t++) {
    const end = t + 1 < starts.length ? starts[t + 1] : files.length;
    out.push({
      turn: t + 1,
      at: "",
      messages: files.slice(0, end).sort(),
      logs: {},
      derived: true,
    });
  }
  return out;
}

/** Writes the record of the turn that just ended (the next number); returns it. */
export function recordTurn(
  sessionDir: string,
  extra: { private?: Record<string, number> } = {},
): TurnRecord {
  const last = turnRecords(sessionDir).at(-1)?.turn ?? 0;
  const record: TurnRecord = {
    turn: last + 1,
    at: isoSeconds(),
    messages: messageFiles(sessionDir).sort(),
    logs: sessionLogRevisions(sessionDir),
    ...(extra.private && Object.keys(extra.private).length ? { private: extra.private } : {}),
  };
  const dir = join(sessionDir, "turns");
  Deno.mkdirSync(dir, { recursive: true });
  writeAtomic(
    dir,
    join(dir, `${String(record.turn).padStart(4, "0")}.json`),
    JSON.stringify(record, null, 1) + "\n",
    false,
  );
  return record;
}

function target(sessionDir: string, turn: number): { record: TurnRecord; turns: TurnRecord[] } {
  const turns = sessionTurns(sessionDir);
  if (turn === 0) return { record: { turn: 0, at: "", messages: [], logs: {} }, turns };
  const record = turns.find((t) => t.turn === turn);
  if (!record) {
    const known = turns.length ? `1–${turns.at(-1)!.turn}` : "none yet";
    throw new HarnessError(
      `session ${basename(sessionDir)} has no turn ${turn} (turns: ${known})`,
      `list them with: hs session turns ${basename(sessionDir)}`,
    );
  }
  return { record, turns };
}

function stamp(): string {
  return isoSeconds().replace(/[-:]/g, "").replace(/\+.*$|Z$/, "");
}

function move(from: string, to: string): void {
  Deno.mkdirSync(join(to, ".."), { recursive: true });
  Deno.renameSync(from, to);
}

/**
 * Rewinds a session to the end of `turn` (0: before the first turn): messages and session
 * logs as recorded then; everything after moved into `<session>/rewound/<stamp>-to-<turn>/`.
 */
export function rewindSession(sessionDir: string, turn: number): RewindResult {
  const { record, turns } = target(sessionDir, turn);
  const from = turns.at(-1)?.turn ?? 0;
  let aside = join(sessionDir, "rewound", `${stamp()}-to-${turn}`);
  for (let n = 2; statOrUndefined(aside); n++) {
    aside = join(sessionDir, "rewound", `${stamp()}-to-${turn}-${n}`);
  }
  Deno.mkdirSync(aside, { recursive: true });
  // what the rewind is about to do, first: a crash part-way still says where things went
  writeAtomic(
    aside,
    join(aside, "rewind.json"),
    JSON.stringify({ from, to: turn, at: isoSeconds(), record }, null, 1) + "\n",
    false,
  );
  const keep = new Set(record.messages);
  const moved: string[] = [];
  for (const name of messageFiles(sessionDir)) {
    if (keep.has(name)) continue;
    move(join(sessionDir, "messages", name), join(aside, "messages", name));
    moved.push(name);
  }
  const present = new Set(messageFiles(sessionDir));
  const missing = record.messages.filter((m) => !present.has(m));
  for (const t of turnRecords(sessionDir)) {
    if (t.turn <= turn) continue;
    const name = `${String(t.turn).padStart(4, "0")}.json`;
    move(join(sessionDir, "turns", name), join(aside, "turns", name));
  }
  const logs: Record<string, [number, number]> = {};
  for (const [pack, rev] of Object.entries(sessionLogRevisions(sessionDir))) {
    const want = record.logs[pack] ?? 0;
    if (rev === want) continue;
    const dir = sessionLogDir(sessionDir, pack);
    const entries = readLogDir(dir);
    move(dir, join(aside, "plugin-state", pack));
    if (want > 0) writeLogDir(dir, entries.slice(0, Math.min(want, entries.length)));
    logs[pack] = [rev, want];
  }
  return { turn, from, aside, messages: moved, logs, missing, record };
}

/**
 * Undoes the latest rewind of a session when nothing happened since: what it moved aside
 * goes back. Throws when the session went on after the rewind.
 */
export function undoRewind(sessionDir: string): { aside: string; turn: number } {
  const root = join(sessionDir, "rewound");
  const latest = listDir(root).filter((n) => !n.startsWith(".")).sort().at(-1);
  const info = latest ? readOwnText(join(root, latest, "rewind.json")) : undefined;
  if (!latest || !info) {
    throw new HarnessError(`session ${basename(sessionDir)} has no rewind to undo`);
  }
  const aside = join(root, latest);
  const { from, to, record } = JSON.parse(info) as { from: number; to: number; record: TurnRecord };
  const now = sessionTurns(sessionDir).at(-1)?.turn ?? 0;
  const recorded = new Set(record.messages);
  if (now !== to || messageFiles(sessionDir).some((m) => !recorded.has(m))) {
    throw new HarnessError(
      `session ${basename(sessionDir)} went on after the rewind: it cannot be undone in place`,
      `what was rewound away is kept in ${aside}; fork the session or copy the files back`,
    );
  }
  for (const name of listDir(join(aside, "messages"))) {
    move(join(aside, "messages", name), join(sessionDir, "messages", name));
  }
  for (const name of listDir(join(aside, "turns"))) {
    move(join(aside, "turns", name), join(sessionDir, "turns", name));
  }
  for (const pack of listDir(join(aside, "plugin-state"))) {
    const dir = sessionLogDir(sessionDir, pack);
    if (statOrUndefined(dir)) move(dir, join(aside, "superseded", pack));
    move(join(aside, "plugin-state", pack), dir);
  }
  Deno.renameSync(aside, join(root, `.undone-${latest}`));
  return { aside, turn: from };
}

/**
 * Copies a session as it stood at the end of `turn` into a new session beside it (its
 * `session.conf` gains `forked_from=` and `forked_turn=`); returns the new session.
 */
export function forkSession(sessionDir: string, turn: number, sessionsDir?: string): Session {
  const { record, turns } = target(sessionDir, turn);
  const src = Session.open(sessionDir);
  const parent = sessionsDir ?? join(sessionDir, "..");
  const base = newSessionId();
  let id = base;
  for (let n = 2; statOrUndefined(join(parent, id)) || !claimSessionId(id); n++) {
    id = `${base}-${n}`;
  }
  const dir = join(parent, id);
  Deno.mkdirSync(join(dir, "messages"), { recursive: true });
  const conf: Record<string, string> = {
    ...src.conf,
    id,
    created: isoSeconds(),
    forked_from: src.id,
    forked_turn: String(turn),
  };
  const order = ["id", "model", "provider", "created", "cwd"];
  const keys = [...order, ...Object.keys(conf).filter((k) => !order.includes(k))];
  writeAtomic(
    dir,
    join(dir, "session.conf"),
    keys.map((k) => `${k}=${conf[k] ?? ""}`).join("\n") + "\n",
    false,
  );
  for (const name of record.messages) {
    // read as hs's own file (a link is refused, never copied), written exclusively
    const text = readOwnText(join(sessionDir, "messages", name));
    if (text === undefined) continue; // recorded but gone (reported by rewind, skipped by fork)
    writeAtomic(join(dir, "messages"), join(dir, "messages", name), text, false);
  }
  for (const [pack, rev] of Object.entries(record.logs)) {
    if (rev <= 0) continue;
    const entries = readLogDir(sessionLogDir(sessionDir, pack));
    writeLogDir(sessionLogDir(dir, pack), entries.slice(0, rev));
  }
  if (!record.derived) {
    Deno.mkdirSync(join(dir, "turns"), { recursive: true });
    for (const t of turns) {
      if (t.turn > turn) continue;
      const { private: _drop, ...kept } = t;
      const name = `${String(t.turn).padStart(4, "0")}.json`;
      writeAtomic(
        join(dir, "turns"),
        join(dir, "turns", name),
        JSON.stringify(kept, null, 1) + "\n",
        false,
      );
    }
  }
  return Session.open(dir);
}
