/**
 * The pure part of `edit_file`: parsing edits, checking anchors against the
 * current lines, and computing the new lines. No file system access.
 *
 * Semantics: every anchor refers to the file as it was read. All anchors are
 * checked before anything changes. The result equals applying the edits
 * bottom-up (the reference's order); inserts at the same place keep the order
 * of the `edits` array. Edits that would step on each other (overlapping
 * ranges, an insert inside a replaced range) are rejected instead of producing
 * order-dependent output.
 *
 * @module
 */
import {
  type Anchor,
  formatHashLine,
  hashLine,
  parseAnchor,
  stripAnchorPrefix,
} from "./hashline.ts";

/** The edit operations `edit_file` understands. */
export const EDIT_TYPES = [
  "replace_range",
  "append_at",
  "prepend_at",
  "append_file",
  "prepend_file",
] as const;

/** One of {@link EDIT_TYPES}. */
export type EditType = typeof EDIT_TYPES[number];

/** An edit as the model sends it (after structural validation). */
export interface RawEdit {
  /** One of {@link EDIT_TYPES} (checked by {@link planEdits}). */
  type: string;
  /** Start anchor `N#HH`. */
  pos?: string | null;
  /** End anchor `N#HH` (replace_range, inclusive). */
  end?: string | null;
  /** Lines, a string, or null (delete). */
  content?: string[] | string | null;
}

/** An edit with parsed anchors and content split into lines (`null` = delete). */
export interface PlannedEdit {
  /** Position in the `edits` array. */
  index: number;
  /** The operation. */
  type: EditType;
  /** Parsed start anchor. */
  pos?: Anchor;
  /** Parsed end anchor. */
  end?: Anchor;
  /** New lines, or null to delete. */
  lines: string[] | null;
}

/** Result of a step that may fail with a message for the model. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Splits new content into lines. A string (or list item) containing newlines gives
 * several lines; one trailing newline is ignored; copied `N#HH:` prefixes are removed.
 */
export function contentLines(content: string[] | string | null | undefined): string[] | null {
  if (content === null || content === undefined) return null;
  const items = typeof content === "string" ? [content] : content;
  return items.flatMap((item) => item.replace(/\n$/, "").split("\n").map(stripAnchorPrefix));
}

function anchorOf(edit: RawEdit, key: "pos" | "end"): Outcome<Anchor> {
  const raw = edit[key];
  const anchor = parseAnchor(raw ?? "");
  if (!anchor) {
    return {
      ok: false,
      error: `invalid ${key} anchor '${raw}' — expected LINE#HASH (e.g. '5#ZM')`,
    };
  }
  return { ok: true, value: anchor };
}

const missing = (s: string | null | undefined) => s === undefined || s === null || s === "";

/** Parses anchors and content of every edit; the first problem is reported. */
export function planEdits(raw: RawEdit[]): Outcome<PlannedEdit[]> {
  if (raw.length === 0) return { ok: false, error: "no edits provided" };
  const planned: PlannedEdit[] = [];
  for (const [index, edit] of raw.entries()) {
    const type = edit.type as EditType;
    if (!EDIT_TYPES.includes(type)) {
      return { ok: false, error: `unknown edit type '${edit.type}'` };
    }
    const lines = contentLines(edit.content);
    const step: PlannedEdit = { index, type, lines };
    if (type === "replace_range") {
      if (missing(edit.pos) || missing(edit.end)) {
        return { ok: false, error: "replace_range requires both pos and end anchors" };
      }
      const pos = anchorOf(edit, "pos");
      if (!pos.ok) return pos;
      const end = anchorOf(edit, "end");
      if (!end.ok) return end;
      if (end.value.line < pos.value.line) {
        return {
          ok: false,
          error: `replace_range end line ${end.value.line} is before pos line ${pos.value.line}`,
        };
      }
      step.pos = pos.value;
      step.end = end.value;
    } else if (type === "append_at" || type === "prepend_at") {
      if (missing(edit.pos)) return { ok: false, error: `${type} requires pos anchor` };
      const pos = anchorOf(edit, "pos");
      if (!pos.ok) return pos;
      step.pos = pos.value;
    }
    if (type !== "replace_range" && lines === null) {
      return { ok: false, error: `${type} requires content (a list of lines or a string)` };
    }
    planned.push(step);
  }
  return { ok: true, value: planned };
}

/**
 * Checks every anchor against the current lines. Returns undefined when all match,
 * else the report for the model: the reference's `MISMATCH` blocks (with the
 * current anchors around each stale line) and a request to re-read the file.
 */
export function checkAnchors(edits: PlannedEdit[], lines: Uint8Array[]): string | undefined {
  const anchors = new Map<string, Anchor>();
  for (const e of edits) {
    for (const a of [e.pos, e.end]) if (a) anchors.set(`${a.line}#${a.hash}`, a);
  }
  const sorted = [...anchors.values()].sort((a, b) => a.line - b.line);
  const report: string[] = [];
  for (const { line, hash } of sorted) {
    if (line < 1 || line > lines.length) {
      report.push(`line ${line} is out of range: the file has ${lines.length} lines`, "");
      continue;
    }
    const actual = hashLine(lines[line - 1], line);
    if (actual === hash) continue;
    report.push(`MISMATCH at line ${line}: expected ${hash}, got ${actual}`);
    for (let k = Math.max(1, line - 2); k <= Math.min(lines.length, line + 2); k++) {
      report.push(`${k === line ? ">>> " : "    "}${formatHashLine(lines[k - 1], k)}`);
    }
    report.push("");
  }
  if (report.length === 0) return undefined;
  report.push(
    "error: stale or invalid anchors; no edits were applied. The file differs from what you " +
      "read: re-read it with read_file and retry with the current anchors.",
  );
  return report.join("\n");
}

/** Rejects edits that overlap (two ranges, or an insert strictly inside a replaced range). */
export function checkOverlaps(edits: PlannedEdit[]): string | undefined {
  const ranges = edits.filter((e) => e.type === "replace_range");
  for (const r of ranges) {
    const [p, e] = [r.pos!.line, r.end!.line];
    for (const o of edits) {
      if (o === r || !o.pos) continue;
      const line = o.pos.line;
      const clash = o.type === "replace_range"
        ? o.index > r.index && line <= e && o.end!.line >= p
        : o.type === "append_at"
        ? line >= p && line < e
        : line > p && line <= e;
      if (clash) {
        return `edits overlap: ${o.type} at line ${line} conflicts with replace_range ${p}-${e}` +
          "; combine them into one edit";
      }
    }
  }
  return undefined;
}

/** One line of the edited file: its bytes and whether it is new content. */
export interface OutputLine {
  /** The line without its `\n`. */
  bytes: Uint8Array;
  /** True for inserted content, false for an original line. */
  fresh: boolean;
}

/**
 * Computes the edited file's lines. Anchors must already be checked. When `crlf` is
 * set, new lines get a `\r` like the file's existing lines.
 */
export function applyEdits(lines: Uint8Array[], edits: PlannedEdit[], crlf = false): OutputLine[] {
  const encoder = new TextEncoder();
  const fresh = (text: string[] | null): OutputLine[] =>
    (text ?? []).map((t) => ({
      bytes: encoder.encode(crlf && !t.endsWith("\r") ? `${t}\r` : t),
      fresh: true,
    }));
  const before = new Map<number, OutputLine[]>();
  const after = new Map<number, OutputLine[]>();
  const ranges = new Map<number, PlannedEdit>();
  const head: OutputLine[] = [];
  const tail: OutputLine[] = [];
  const push = (map: Map<number, OutputLine[]>, line: number, items: OutputLine[]) =>
    map.set(line, [...(map.get(line) ?? []), ...items]);
  for (const e of edits) {
    if (e.type === "replace_range") ranges.set(e.pos!.line, e);
    else if (e.type === "append_at") push(after, e.pos!.line, fresh(e.lines));
    else if (e.type === "prepend_at") push(before, e.pos!.line, fresh(e.lines));
    else if (e.type === "prepend_file") head.push(...fresh(e.lines));
    else tail.push(...fresh(e.lines));
  }
  const out: OutputLine[] = [...head];
  for (let i = 1; i <= lines.length; i++) {
    out.push(...before.get(i) ?? []);
    const range = ranges.get(i);
    if (range) {
      out.push(...fresh(range.lines));
      i = range.end!.line;
    } else {
      out.push({ bytes: lines[i - 1], fresh: false });
    }
    out.push(...after.get(i) ?? []);
  }
  out.push(...tail);
  return out;
}

/** Joins output lines into file bytes, keeping the original's final-newline convention. */
export function joinLines(out: OutputLine[], original: Uint8Array): Uint8Array {
  if (out.length === 0) return new Uint8Array(0);
  const finalNewline = original.length === 0 || original[original.length - 1] === 0x0a ||
    out[out.length - 1].fresh;
  const size = out.reduce((n, l) => n + l.bytes.length + 1, 0) - (finalNewline ? 0 : 1);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const [i, line] of out.entries()) {
    bytes.set(line.bytes, offset);
    offset += line.bytes.length;
    if (i < out.length - 1 || finalNewline) bytes[offset++] = 0x0a;
  }
  return bytes;
}

/** The reference's per-edit summary lines, in its bottom-up application order. */
export function editSummaries(edits: PlannedEdit[]): string[] {
  const key = (e: PlannedEdit) =>
    e.type === "append_file" ? Infinity : e.type === "prepend_file" ? 0 : e.pos!.line;
  return [...edits]
    .sort((a, b) => key(b) - key(a) || b.index - a.index)
    .map((e) => {
      switch (e.type) {
        case "replace_range":
          return `replaced lines ${e.pos!.line}-${e.end!.line}`;
        case "append_at":
          return `appended after line ${e.pos!.line}`;
        case "prepend_at":
          return `prepended before line ${e.pos!.line}`;
        case "append_file":
          return "appended to end of file";
        case "prepend_file":
          return "prepended to start of file";
      }
    });
}

/** True when most lines end with `\r` (a CRLF file). */
export function isCrlf(lines: Uint8Array[]): boolean {
  const cr = lines.filter((l) => l.length > 0 && l[l.length - 1] === 0x0d).length;
  return cr > 0 && cr * 2 > lines.length;
}
