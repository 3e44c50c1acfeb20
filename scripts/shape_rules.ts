/**
 * `deno task check`'s shape rules (run by scripts/check_imports.ts, beside the import rules):
 * a `mod.ts` only re-exports; a command does not import another command; a front end (cli/)
 * holds the harness's façade, never the kernel (it names no `HarnessCore` and does not import
 * `plugins/mod.ts`, where the kernel with its built-ins is made); no source file over
 * {@link MAX_FILE_LINES} lines and no function over {@link MAX_FUNCTION_LINES} lines — outside
 * `scheme/primitives/` (the primitive tables) and the files of {@link ALLOWED_LONG}, each with
 * the reason it is not split yet. So a merge that regrows a hub fails in CI, not in a review.
 *
 * The function rule reads deno-fmt formatted source: a function starts at a line that declares
 * it (`function`, a method, an arrow function ending its line with `=> {`) in code — not in a
 * comment, a string or a template literal (generated or browser code) — and ends at the
 * closing brace at the same indentation.
 *
 * @module
 */

/** The longest a source file may be, in lines. */
export const MAX_FILE_LINES = 600;
/** The longest a function may be, in lines (its header to its closing brace). */
export const MAX_FUNCTION_LINES = 120;

/** Folders whose files the size rules skip: the primitive tables are long by nature. */
export const SIZE_EXEMPT = ["scheme/primitives/"];

/**
 * Files not split yet, each with its reason. An entry covers the file's length and its long
 * functions; remove it once the file holds the shape.
 */
export const ALLOWED_LONG: Record<string, string> = {
  "core/sandbox/fs_worker.ts": "workerMain: containment work in core/sandbox, not split yet",
  "core/guards/shell_parse.ts": "tokenize: one state machine, issue 26, not split yet",
  "scheme/nodes/calls.ts": "callNode: the arity-specialised call paths, issue 26, not split yet",
  "scheme/base/driver.ts":
    "Run#steps: the driver's hot loop (performance), issue 26, not split yet",
};

/** A broken shape rule, as printed. */
export interface ShapeViolation {
  rule:
    | "mod.ts with code"
    | "command import"
    | "kernel reach"
    | "file size"
    | "function size"
    | "stale allowance";
  message: string;
}

/** A re-export statement: `export * from "…"`, `export { a, type B } from "…"`. */
const REEXPORT =
  /^export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+["'][^"']+["']\s*;?/;

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** The first statement of a `mod.ts` that is not a re-export, if any. */
export function modCode(text: string): string | undefined {
  let rest = stripComments(text).trim();
  while (rest.length > 0) {
    const m = rest.match(REEXPORT);
    if (!m) return rest.split("\n")[0].slice(0, 80);
    rest = rest.slice(m[0].length).trim();
  }
  return undefined;
}

/** The folder holding the command files: a command is a leaf, it imports no other command. */
export const COMMANDS_DIR = "cli/commands/";

/**
 * The command a file of `cli/commands/` belongs to: its file (`run.ts` → `run`) or its folder
 * (`packs/state.ts` → `packs`); undefined outside, and for `cli/commands/mod.ts`, the list.
 */
export function commandOf(path: string): string | undefined {
  if (!path.startsWith(COMMANDS_DIR) || path === `${COMMANDS_DIR}mod.ts`) return undefined;
  return path.slice(COMMANDS_DIR.length).split("/")[0].replace(/\.ts$/, "");
}

/** Edges from one command to another (the files of one command's folder may import each other). */
export function commandImports(edges: { from: string; to: string }[]): ShapeViolation[] {
  return edges.filter((e) => {
    const a = commandOf(e.from), b = commandOf(e.to);
    return a !== undefined && b !== undefined && a !== b;
  }).map((e) => ({
    rule: "command import" as const,
    message: `${e.from} imports the command ${e.to}: a command is a leaf; move what they share ` +
      `into a room both import (cli/view/, cli/prompts/, …)`,
  }));
}

/** The front ends' folder: they are handed `FrontEnd` (core/front_end.ts), not the harness. */
export const FRONT_END_DIR = "cli/";

/** Names of the kernel a front end may not use (the harness root: every field is the kernel). */
export const KERNEL_NAMES = ["HarnessCore"];

/** Where the kernel with its built-in plugins is made (`Harness.create`): main.ts's, not cli/'s. */
export const KERNEL_MAKER = "plugins/mod.ts";

/**
 * Front-end files that reach the kernel: one naming {@link KERNEL_NAMES} in code (comments do
 * not count), or importing {@link KERNEL_MAKER}. A front end reads the harness through the
 * façade it is handed (runs, catalog, sessions, packs, admin), so this rule and the
 * façade's type keep the kernel's fields (registries, host, stages, discovery, the provider
 * catalog, the floor, trust, config, paths) out of its reach.
 */
export function kernelReach(
  files: { path: string; text: string }[],
  edges: { from: string; to: string }[],
): ShapeViolation[] {
  const out: ShapeViolation[] = [];
  const named = new RegExp(`\\b(${KERNEL_NAMES.join("|")})\\b`);
  for (const { path, text } of files) {
    if (!path.startsWith(FRONT_END_DIR)) continue;
    const m = stripComments(text).match(named);
    if (!m) continue;
    out.push({
      rule: "kernel reach",
      message: `${path} names ${m[1]}: a front end is handed FrontEnd (core/front_end.ts); ` +
        `read the harness through its runs, catalog, sessions, packs and admin`,
    });
  }
  for (const e of edges) {
    if (!e.from.startsWith(FRONT_END_DIR) || e.to !== KERNEL_MAKER) continue;
    out.push({
      rule: "kernel reach",
      message: `${e.from} imports ${KERNEL_MAKER}: the kernel is made by main.ts, which hands ` +
        `cli/ its FrontEnd (CliContext.createHarness)`,
    });
  }
  return out;
}

/** A function longer than the limit. */
export interface LongFunction {
  /** 1-based line of its header. */
  line: number;
  /** Its name (or "function" / "arrow function"). */
  name: string;
  /** Its length in lines. */
  lines: number;
}

const KEYWORDS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "return",
  "await",
  "new",
  "typeof",
  "super",
  "this",
  "do",
  "else",
  "try",
  "with",
  "yield",
  "throw",
  "delete",
  "void",
  "in",
  "of",
  "case",
]);
const FUNCTION_HEADER = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]*)/;
const METHOD_HEADER =
  /^(?:(?:static|private|protected|public|readonly|async|override|get|set)\s+)*\*?\s*(#?[\w$]+)\s*(?:<[^>]*>)?\s*\(/;
const ARROW_OPENS = /=>\s*\{$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function headerName(t: string): string | undefined {
  const f = t.match(FUNCTION_HEADER);
  if (f) return f[1] || "function";
  const m = t.match(METHOD_HEADER);
  if (m && !KEYWORDS.has(m[1])) return m[1];
  if (ARROW_OPENS.test(t)) {
    const a = t.match(/(?:const|let|var)\s+([\w$]+)/) ?? t.match(/([\w$]+)\s*[:=(]/);
    return a ? a[1] : "arrow function";
  }
  return undefined;
}

/** The functions of deno-fmt formatted `text` longer than `max` lines. */
export function longFunctions(text: string, max = MAX_FUNCTION_LINES): LongFunction[] {
  const lines = text.split("\n");
  const code = codeLineStarts(text);
  const out: LongFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (!code[i] || t === "" || t.startsWith("//") || t.startsWith("/*") || t.startsWith("*")) {
      continue;
    }
    const name = headerName(t);
    if (name === undefined) continue;
    const ind = indentOf(lines[i]);
    // the body opens on this line, or on the line at this indent that ends a multi-line header
    let open = t.endsWith("{") ? i : -1;
    for (let j = i + 1; open < 0 && j < lines.length; j++) {
      const u = lines[j];
      if (u.trim() === "" || indentOf(u) > ind) continue;
      if (indentOf(u) === ind && u.trim().startsWith(")") && u.trim().endsWith("{")) open = j;
      break;
    }
    if (open < 0) continue;
    for (let j = open + 1; j < lines.length; j++) {
      const u = lines[j];
      if (!code[j] || u.trim() === "" || indentOf(u) !== ind) continue;
      const n = j - i + 1;
      if (u.trim().startsWith("}") && n > max) out.push({ line: i + 1, name, lines: n });
      break;
    }
  }
  return out;
}

/** Where the size rules apply: source files, outside the exempt folders and the allow-list. */
export function sizeRulesApply(path: string): boolean {
  return !SIZE_EXEMPT.some((d) => path.startsWith(d)) && !(path in ALLOWED_LONG);
}

/** The shape rules over source files (repository-relative paths with their text). */
export function shapeViolations(
  files: { path: string; text: string }[],
  edges: { from: string; to: string }[],
): ShapeViolation[] {
  const out: ShapeViolation[] = [];
  for (const { path, text } of files) {
    if (path === "mod.ts" || path.endsWith("/mod.ts")) {
      const code = modCode(text);
      if (code !== undefined) {
        out.push({
          rule: "mod.ts with code",
          message: `${path} holds code (\`${code}\`): move it into a named file of the folder; ` +
            `a mod.ts only re-exports`,
        });
      }
    }
    if (!sizeRulesApply(path)) continue;
    const n = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (n > MAX_FILE_LINES) {
      out.push({
        rule: "file size",
        message: `${path} has ${n} lines (at most ${MAX_FILE_LINES}): split it by what its ` +
          `parts do (or name the reason in ALLOWED_LONG, scripts/shape_rules.ts)`,
      });
    }
    for (const f of longFunctions(text)) {
      out.push({
        rule: "function size",
        message: `${path}:${f.line} ${f.name} has ${f.lines} lines (at most ` +
          `${MAX_FUNCTION_LINES}): split it into named steps`,
      });
    }
  }
  return [...out, ...commandImports(edges), ...kernelReach(files, edges)];
}

/**
 * Entries of {@link ALLOWED_LONG} whose file now holds the shape (or is gone): an allowance
 * outlives the reason it names unless removing it is enforced too.
 */
export function staleAllowances(
  files: { path: string; text: string }[],
  allowed: Record<string, string> = ALLOWED_LONG,
): ShapeViolation[] {
  const out: ShapeViolation[] = [];
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  for (const path of Object.keys(allowed)) {
    const text = byPath.get(path);
    const n = text === undefined ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (text !== undefined && (n > MAX_FILE_LINES || longFunctions(text).length > 0)) continue;
    out.push({
      rule: "stale allowance",
      message: `${path} is in ALLOWED_LONG (scripts/shape_rules.ts) but ` +
        (text === undefined ? "does not exist" : "holds the shape now") + ": remove its entry",
    });
  }
  return out;
}

/**
 * For each line of a TypeScript text, whether it starts in code (not inside a comment, a string
 * or a template literal): a small lexer over comments, quotes, template literals with `${…}`
 * nesting and regular expression literals (told from division by the token before them).
 */
export function codeLineStarts(text: string): boolean[] {
  const starts: boolean[] = [true];
  // stack of contexts: "code" (with brace depth inside a template's ${…}) or "tpl"
  const stack: { kind: "code" | "tpl"; depth: number }[] = [{ kind: "code", depth: 0 }];
  let mode: "code" | "line" | "block" | "sq" | "dq" | "tpl" | "re" = "code";
  let reClass = false;
  let prev = ""; // last significant code character (or a word's last char)
  let word = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      if (mode === "line") mode = stack[stack.length - 1].kind === "tpl" ? "tpl" : "code";
      starts.push(mode === "code");
      if (mode === "code") word = "";
      continue;
    }
    switch (mode) {
      case "line":
        continue;
      case "block":
        if (c === "*" && text[i + 1] === "/") {
          mode = "code";
          i++;
        }
        continue;
      case "sq":
      case "dq":
        if (c === "\\") i++;
        else if ((c === "'" && mode === "sq") || (c === '"' && mode === "dq")) {
          mode = "code";
          prev = "a";
        }
        continue;
      case "re":
        if (c === "\\") i++;
        else if (c === "[") reClass = true;
        else if (c === "]") reClass = false;
        else if (c === "/" && !reClass) {
          mode = "code";
          prev = "a";
        }
        continue;
      case "tpl":
        if (c === "\\") i++;
        else if (c === "`") {
          stack.pop();
          mode = "code";
          prev = "a";
        } else if (c === "$" && text[i + 1] === "{") {
          stack.push({ kind: "code", depth: 0 });
          mode = "code";
          prev = "(";
          i++;
        }
        continue;
    }
    // code
    if (c === "/" && text[i + 1] === "/") {
      mode = "line";
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      mode = "block";
      i++;
      continue;
    }
    if (c === "'") {
      mode = "sq";
      continue;
    }
    if (c === '"') {
      mode = "dq";
      continue;
    }
    if (c === "`") {
      stack.push({ kind: "tpl", depth: 0 });
      mode = "tpl";
      continue;
    }
    if (c === "/") {
      const regexAfter = prev === "" || "(,=:[!&|?{};+-*%<>~^".includes(prev) ||
        ["return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await"].includes(
          word,
        );
      if (regexAfter) {
        mode = "re";
        reClass = false;
        continue;
      }
    }
    const top = stack[stack.length - 1];
    if (c === "{") top.depth++;
    if (c === "}") {
      if (top.depth === 0 && stack.length > 1) {
        stack.pop(); // the end of a template's ${…}
        mode = "tpl";
        continue;
      }
      top.depth--;
    }
    if (/\s/.test(c)) continue;
    if (/[\w$]/.test(c)) word = (/[\w$]/.test(prev) ? word : "") + c;
    else word = "";
    prev = c;
  }
  return starts;
}
