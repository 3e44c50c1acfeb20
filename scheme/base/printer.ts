/**
 * The printer: `write`, `write-shared`, `write-simple` and `display` representations.
 *
 * @module
 */
import {
  Char,
  Complex,
  Dict,
  Environment,
  Eof,
  Flo,
  JsonNull,
  Keyword,
  MString,
  Nil,
  Pair,
  Parameter,
  Ratio,
  Record as SRecord,
  RecordType,
  SPromise,
  Sym,
  Values,
} from "./types.ts";
import { errorHooks, ErrorObject, SchemeLimitError } from "./errors.ts";
import { work } from "./state.ts";
import { numberToString, parseNumber } from "./number_syntax.ts";

/** Printing modes. */
export type PrintMode = "write" | "display" | "shared" | "simple";

const CHAR_OUT: Record<number, string> = {
  7: "alarm",
  8: "backspace",
  127: "delete",
  27: "escape",
  10: "newline",
  0: "null",
  13: "return",
  32: "space",
  9: "tab",
};

/** Hook so procedures/closures print with their names (set by the runtime). */
export const printHooks: { procName: (x: unknown) => string | null } = { procName: () => null };

function writeString(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "\n":
        out += "\\n";
        break;
      case "\t":
        out += "\\t";
        break;
      case "\r":
        out += "\\r";
        break;
      default: {
        const c = ch.codePointAt(0)!;
        out += c < 32 || c === 127 ? `\\x${c.toString(16)};` : ch;
      }
    }
  }
  return out + '"';
}

function writeSymbol(name: string): string {
  const needsBars = name === "" || /[\s()|"';`,[\]{}\\]/.test(name) || name[0] === "#" ||
    /^[+-]?(\d|\.\d)/.test(name) || name === "." || /^[+-](inf\.0|nan\.0|i$)/i.test(name) ||
    parseNumber(name) !== null;
  if (!needsBars) return name;
  return "|" + name.replace(/[\\|]/g, (m) => "\\" + m) + "|";
}

/** Options of {@link toStr}. */
export interface PrintOptions {
  /** Longest output: past it, `truncate` ends the text with `…`, else a memory limit error. */
  max?: number;
  /** Cut at `max` instead of raising. */
  truncate?: boolean;
  /** Charge the work to the running evaluation's fuel (set by the Scheme output procedures). */
  charge?: boolean;
}

class Truncated {}
const TRUNCATED = new Truncated();

/** Converts a value to its printed representation. */
export function toStr(x: unknown, mode: PrintMode = "write", opts: PrintOptions = {}): string {
  const max = opts.max ?? Infinity;
  const charge = opts.charge ?? false;
  const labels = mode === "simple" ? null : findShared(x, mode === "shared", charge);
  const assigned = new Map<unknown, number>();
  let counter = 0;
  const parts: string[] = [];
  let len = 0;
  let pushes = 0;
  const out = {
    push(s: string): void {
      parts.push(s);
      len += s.length;
      if (len > max) {
        if (opts.truncate) throw TRUNCATED;
        throw new SchemeLimitError("memory", `string too long (more than ${max} characters)`);
      }
      if (charge && (++pushes & 1023) === 0) work(1024 * 64);
    },
  };
  const pr = (x: unknown): void => {
    if (labels && labels.has(x)) {
      const n = assigned.get(x);
      if (n !== undefined) {
        out.push(`#${n}#`);
        return;
      }
      const id = counter++;
      assigned.set(x, id);
      out.push(`#${id}=`);
    }
    if (x instanceof Pair) {
      if (
        x.car instanceof Sym && x.cdr instanceof Pair && x.cdr.cdr instanceof Nil &&
        !labels?.has(x.cdr)
      ) {
        const q =
          ({ quote: "'", quasiquote: "`", unquote: ",", "unquote-splicing": ",@" } as Record<
            string,
            string
          >)[x.car.name];
        if (q) {
          out.push(q);
          pr(x.cdr.car);
          return;
        }
      }
      out.push("(");
      pr(x.car);
      let p = x.cdr;
      while (p instanceof Pair && !(labels && labels.has(p))) {
        out.push(" ");
        pr(p.car);
        p = p.cdr;
      }
      if (!(p instanceof Nil)) {
        out.push(" . ");
        pr(p);
      }
      out.push(")");
      return;
    }
    if (Array.isArray(x)) {
      out.push("#(");
      for (let i = 0; i < x.length; i++) {
        if (i) out.push(" ");
        pr(x[i]);
      }
      out.push(")");
      return;
    }
    if (x instanceof Dict) {
      out.push("(dict");
      for (const [k, v] of x.map) {
        out.push(" :" + k + " ");
        pr(v);
      }
      out.push(")");
      return;
    }
    out.push(atomStr(x, mode));
  };
  try {
    pr(x);
  } catch (e) {
    if (e !== TRUNCATED) throw e;
    return parts.join("").slice(0, max) + "…";
  }
  return parts.join("");
}

function atomStr(x: unknown, mode: PrintMode): string {
  switch (typeof x) {
    case "number":
    case "bigint":
      return x.toString();
    case "string":
      return mode === "display" ? x : writeString(x);
    case "boolean":
      return x ? "#t" : "#f";
    case "undefined":
      return "";
  }
  if (x instanceof MString) return mode === "display" ? x.s : writeString(x.s);
  if (x instanceof Sym) return mode === "display" ? x.name : writeSymbol(x.name);
  if (x instanceof Flo || x instanceof Ratio || x instanceof Complex) return numberToString(x);
  if (x instanceof Char) {
    if (mode === "display") return String.fromCodePoint(x.code);
    const n = CHAR_OUT[x.code];
    if (n) return "#\\" + n;
    if (x.code < 32) return "#\\x" + x.code.toString(16);
    return "#\\" + String.fromCodePoint(x.code);
  }
  if (x instanceof Nil) return "()";
  if (x instanceof Keyword) return ":" + x.name;
  if (x instanceof Uint8Array) return `#u8(${Array.from(x).join(" ")})`;
  if (x instanceof JsonNull) return "null";
  if (x instanceof Eof) return "#<eof>";
  if (x instanceof Values) return x.vals.map((v) => toStr(v, mode, NESTED)).join(" ");
  if (x instanceof ErrorObject) {
    return `#<error ${toStr(x.message, "write")}${
      x.irritants instanceof Pair ? " " + toStr(x.irritants, mode, NESTED).slice(1, -1) : ""
    }>`;
  }
  if (x instanceof SRecord) {
    return `#<${x.type.name}${x.fields.map((f) => " " + toStr(f, mode, NESTED)).join("")}>`;
  }
  if (x instanceof RecordType) return `#<record-type ${x.name}>`;
  if (x instanceof SPromise) return "#<promise>";
  if (x instanceof Parameter) return "#<parameter>";
  if (x instanceof Environment) return "#<environment>";
  const pn = printHooks.procName(x);
  if (pn !== null) return pn;
  if (typeof x === "symbol") return `#<${x.description}>`;
  return "#<object>";
}

const NESTED: PrintOptions = { max: 100_000, truncate: true };

/** Finds objects that must get datum labels: cycles only, or all shared structure. */
function findShared(x: unknown, all: boolean, charge: boolean): Map<unknown, number> | null {
  if (!(x instanceof Pair) && !Array.isArray(x)) return null;
  const seen = new Map<unknown, number>();
  const onStack = new Set<unknown>();
  const result = new Map<unknown, number>();
  // iterative DFS with explicit stack to support deep structures
  const stack: [unknown, number][] = [[x, 0]];
  while (stack.length) {
    const top = stack[stack.length - 1];
    const [v, state] = top;
    if (state === 0) {
      if (seen.has(v)) {
        if (all || onStack.has(v)) result.set(v, 1);
        stack.pop();
        continue;
      }
      seen.set(v, 1);
      if (charge && (seen.size & 1023) === 0) work(1024 * 64);
      onStack.add(v);
      top[1] = 1;
      const kids: unknown[] = v instanceof Pair
        ? [v.cdr, v.car]
        : (v as unknown[]).slice().reverse();
      for (const k of kids) {
        if (k instanceof Pair || (Array.isArray(k) && k.length)) stack.push([k, 0]);
      }
    } else {
      onStack.delete(v);
      stack.pop();
    }
  }
  return result.size ? result : null;
}

/** `display` representation. */
export function display(x: unknown): string {
  return toStr(x, "display");
}
/** `write` representation. */
export function write(x: unknown): string {
  return toStr(x, "write");
}

errorHooks.write = (x, max) => toStr(x, "write", { max, truncate: true });
