/**
 * Where an authoring error is, and what was expected (issue 27 point 5): a `plugin.json` or a
 * bot's frontmatter that does not parse, or whose shape the schema refuses, is reported at its
 * `line:col` with a sentence a pack author reads — never raw schema text. YAML is a superset of
 * JSON, so one parser finds the node of a path in either.
 *
 * @module
 */
import type { z } from "zod";
import { yamlNow } from "../base/mod.ts";

/** A 1-based line and column. */
export interface Position {
  line: number;
  col: number;
}

/** The `line:col` of offset `pos` in `text`. */
export function positionAt(text: string, pos: number): Position {
  const before = text.slice(0, Math.max(0, Math.min(pos, text.length)));
  const line = before.split("\n").length;
  return { line, col: pos - (before.lastIndexOf("\n") + 1) + 1 };
}

/**
 * A JSON.parse failure of `text` as `line:col` and a sentence: where the parser stopped and
 * what it expected there.
 */
export function jsonProblem(text: string, err: unknown): { at: Position; message: string } {
  const raw = (err as Error).message;
  const lc = /\(line (\d+) column (\d+)\)/.exec(raw);
  const pos = /at position (\d+)/.exec(raw);
  const at = lc
    ? { line: Number(lc[1]), col: Number(lc[2]) }
    : positionAt(text, pos ? Number(pos[1]) : text.length);
  let what = raw.replace(/,? ?(in JSON )?at position \d+.*$/, "").replace(/ \(line.*$/, "")
    .replace(/^JSON\.parse: /, "");
  if (/^Unexpected end of JSON input/.test(what)) {
    what = "the file ends early: expected a closing '}' or ']'";
  } else if (!/expected/i.test(what)) what += " (expected a JSON value: an object, a list, …)";
  return { at, message: `not valid JSON: ${what}` };
}

/** The position of the node at `path` (a key's own position when `key` is given). */
export function nodePosition(
  text: string,
  path: readonly PropertyKey[],
  key?: string,
): Position | undefined {
  const YAML = yamlNow(); // loaded before any pack is read (Packs.load)
  if (!YAML) return undefined;
  const counter = new YAML.LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: counter, keepSourceTokens: false });
  // a missing node is reported at the nearest one that is there
  // deno-lint-ignore no-explicit-any
  let node: any;
  for (let n = path.length; n >= 0 && !node?.range; n--) {
    node = n ? doc.getIn(path.slice(0, n) as unknown[], true) : doc.contents;
  }
  if (key !== undefined && node && Array.isArray(node.items)) {
    // deno-lint-ignore no-explicit-any
    node = node.items.find((p: any) => p?.key?.value === key)?.key ?? node;
  }
  const offset = node?.range?.[0];
  if (typeof offset !== "number") return undefined;
  const p = counter.linePos(offset);
  return { line: p.line, col: p.col };
}

/** The value at `path` of parsed data. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const k of path) v = (v as Record<PropertyKey, unknown> | undefined)?.[k];
  return v;
}

const TYPE_WORDS: Record<string, string> = {
  array: "a list",
  object: "a mapping (key: value)",
  string: "a string",
  number: "a number",
  boolean: "true or false",
};

/** A value as an author wrote it (short). */
function shown(v: unknown): string {
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return "a list";
  if (v !== null && typeof v === "object") return "a mapping";
  const s = JSON.stringify(v);
  return s.length > 40 ? s.slice(0, 40) + "…" : s;
}

/** The keys an object schema at `path` accepts (through optional, default, record, array). */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  // deno-lint-ignore no-explicit-any
  const unwrap = (s: any) => {
    while (s && ["optional", "default", "nullable", "prefault"].includes(s.def?.type)) {
      s = s.def.innerType;
    }
    return s;
  };
  // deno-lint-ignore no-explicit-any
  let s: any = unwrap(schema);
  for (const k of path) {
    const t = s?.def?.type;
    s = unwrap(
      t === "object" ? s.shape[k as string] : t === "record" ? s.def.valueType : s?.def?.element,
    );
  }
  return s?.def?.type === "object" ? Object.keys(s.shape) : [];
}

/**
 * A schema issue as a sentence: `path: expected …, got …` (with `hints[path]` added, e.g. what
 * leaving the key out means), and the path of the node it is about.
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  data: unknown,
  schema: z.ZodType,
  hints: Record<string, string> = {},
): { path: PropertyKey[]; key?: string; message: string } {
  const path = issue.path as PropertyKey[];
  const name = path.map(String).join(".");
  const hint = hints[name] ? ` ${hints[name]}` : "";
  const got = shown(valueAt(data, path));
  const label = (p: string) => p || "frontmatter";
  switch (issue.code) {
    case "invalid_type":
      if (valueAt(data, path) === undefined && path.length > 0) {
        const parent = path.slice(0, -1).map(String).join(".");
        return {
          path,
          message: `${name} is required${parent ? ` when ${parent} is present` : ""} ` +
            `(expected ${TYPE_WORDS[issue.expected] ?? issue.expected})`,
        };
      }
      return {
        path,
        message: `${label(name)}: expected ${TYPE_WORDS[issue.expected] ?? issue.expected}` +
          `${hint}, got ${got}`,
      };
    case "invalid_value":
      return {
        path,
        message:
          `${label(name)}: expected ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}` +
          `${hint}, got ${got}`,
      };
    case "unrecognized_keys": {
      const key = issue.keys[0];
      const known = keysAt(schema, path);
      return {
        path,
        key,
        message: `${[...path.map(String), key].join(".")}: unknown key` +
          (known.length ? ` (expected one of ${known.join(", ")})` : ""),
      };
    }
    default:
      return { path, message: `${label(name)}: ${issue.message}${hint}` };
  }
}
