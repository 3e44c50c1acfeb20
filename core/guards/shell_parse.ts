/**
 * A shell command analyser for the permission engine: finds every simple
 * command a bash script would run — through pipes, lists, subshells,
 * `$(…)`, backticks, process substitution and wrappers (`env`, `bash -c`,
 * `sh -c`, `xargs`, `nohup`, `time`, `timeout`, `nice`, `exec`, `eval`,
 * `find -exec`, …) — so a rule cannot be bypassed by wrapping. When a
 * command name is computed at run time (`$cmd`, `$(…)` in command position,
 * `case`), the analysis says it is `uncertain` and the caller applies the
 * strictest rule that could match.
 *
 * This is not a full POSIX parser; it errs towards finding more commands,
 * never fewer.
 *
 * @module
 */

/** The result of {@link analyseShell}. */
export interface ShellAnalysis {
  /** Every simple command (words after quote removal), wrappers included. */
  commands: string[][];
  /** Targets of output redirections (`>`, `>>`, `&>`, …). */
  writes: string[];
  /** True when some command name cannot be known before running. */
  uncertain: boolean;
  /** Why it is uncertain (for the refusal message). */
  reasons: string[];
}

type Tok =
  | { t: "word"; v: string; dynamic: boolean }
  | { t: "op"; v: string };

const OPS = ["&&", "||", ";;", "|&", "&>>", "&>", ">>", "<<<", "<<", ">&", "<&", ">|", "<>"];
const SINGLE = new Set([";", "&", "|", "(", ")", "\n", "<", ">"]);
const REDIRECT = new Set([">", ">>", "&>", "&>>", ">|", "<", "<<<", "<&", ">&", "<>"]);
const RESERVED = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);

interface Ctx {
  out: ShellAnalysis;
  depth: number;
}

/** Analyses a bash script. */
export function analyseShell(script: string): ShellAnalysis {
  const hit = cache.get(script);
  if (hit) return hit;
  const a = analyse(script);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(script, a);
  return a;
}

/** Recent analyses: the floor, guards and rules each look at the same script. */
const cache = new Map<string, ShellAnalysis>();
const CACHE_SIZE = 256;

function analyse(script: string): ShellAnalysis {
  const out: ShellAnalysis = { commands: [], writes: [], uncertain: false, reasons: [] };
  parseScript(script, { out, depth: 0 });
  return out;
}

function uncertain(ctx: Ctx, reason: string): void {
  ctx.out.uncertain = true;
  if (!ctx.out.reasons.includes(reason)) ctx.out.reasons.push(reason);
}

/** Reads a `$(…)` body starting after `$(`; returns the body and the index after `)`. */
function readParenBody(s: string, i: number): { body: string; end: number } | undefined {
  let depth = 1;
  const start = i;
  while (i < s.length) {
    const c = s[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) return undefined;
      i = j + 1;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (c === "(") depth++;
    if (c === ")") {
      depth--;
      if (depth === 0) return { body: s.slice(start, i), end: i + 1 };
    }
    i++;
  }
  return undefined;
}

function tokenize(s: string, ctx: Ctx): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let word = "";
  let inWord = false;
  let dynamic = false;
  const flush = () => {
    if (inWord) toks.push({ t: "word", v: word, dynamic });
    word = "";
    inWord = false;
    dynamic = false;
  };
  const sub = (body: string) => {
    parseScript(body, { out: ctx.out, depth: ctx.depth + 1 });
    dynamic = true;
    inWord = true;
  };
  while (i < s.length) {
    const c = s[i];
    if (c === " " || c === "\t" || c === "\r") {
      flush();
      i++;
      continue;
    }
    if (c === "#" && !inWord) {
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    if (c === "\\") {
      if (s[i + 1] === "\n") {
        i += 2;
        continue;
      }
      word += s[i + 1] ?? "";
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) {
        uncertain(ctx, "unbalanced quote");
        word += s.slice(i + 1);
        inWord = true;
        break;
      }
      word += s.slice(i + 1, j);
      inWord = true;
      i = j + 1;
      continue;
    }
    if (c === '"') {
      inWord = true;
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === "\\" && i + 1 < s.length) {
          word += s[i + 1];
          i += 2;
        } else if (s[i] === "$" && s[i + 1] === "(") {
          const r = readParenBody(s, i + 2);
          if (!r) {
            uncertain(ctx, "unbalanced $(");
            i = s.length;
            break;
          }
          sub(r.body);
          word += "$(…)";
          i = r.end;
        } else if (s[i] === "`") {
          const j = s.indexOf("`", i + 1);
          if (j < 0) {
            uncertain(ctx, "unbalanced backtick");
            i = s.length;
            break;
          }
          sub(s.slice(i + 1, j));
          word += "`…`";
          i = j + 1;
        } else {
          if (s[i] === "$") dynamic = true;
          word += s[i];
          i++;
        }
      }
      if (i >= s.length && s[s.length - 1] !== '"') uncertain(ctx, "unbalanced quote");
      i++;
      continue;
    }
    if (c === "$" && s[i + 1] === "(") {
      if (s[i + 2] === "(") {
        // arithmetic $(( … )): may still contain $(…)
        const r = readParenBody(s, i + 2);
        if (r) {
          for (const m of r.body.matchAll(/\$\(([^()]*)\)/g)) sub(m[1]);
          word += "$((…))";
          dynamic = true;
          inWord = true;
          i = r.end + 1;
          continue;
        }
      }
      const r = readParenBody(s, i + 2);
      if (!r) {
        uncertain(ctx, "unbalanced $(");
        break;
      }
      sub(r.body);
      word += "$(…)";
      i = r.end;
      continue;
    }
    if (c === "`") {
      const j = s.indexOf("`", i + 1);
      if (j < 0) {
        uncertain(ctx, "unbalanced backtick");
        break;
      }
      sub(s.slice(i + 1, j));
      word += "`…`";
      i = j + 1;
      continue;
    }
    if ((c === "<" || c === ">") && s[i + 1] === "(") {
      const r = readParenBody(s, i + 2);
      if (!r) {
        uncertain(ctx, "unbalanced process substitution");
        break;
      }
      sub(r.body);
      word += "/dev/fd/…";
      i = r.end;
      continue;
    }
    if (c === "$") {
      dynamic = true;
      inWord = true;
      word += c;
      i++;
      continue;
    }
    const op = OPS.find((o) => s.startsWith(o, i));
    if (op || SINGLE.has(c)) {
      // `2>` / `2>&1`: a digit word glued to a redirection is a file descriptor
      if ((op ?? c).match(/^[<>&]/) && /^\d+$/.test(word) && inWord) {
        word = "";
        inWord = false;
        dynamic = false;
      }
      flush();
      const v = op ?? c;
      toks.push({ t: "op", v });
      i += v.length;
      continue;
    }
    if (c === "{" || c === "}") {
      // braces are words only when standing alone
      const standalone = !inWord && (i + 1 >= s.length || /[\s;]/.test(s[i + 1]));
      if (standalone) {
        flush();
        toks.push({ t: "word", v: c, dynamic: false });
        i++;
        continue;
      }
    }
    word += c;
    inWord = true;
    i++;
  }
  flush();
  return toks;
}

function parseScript(script: string, ctx: Ctx): void {
  if (ctx.depth > 16) {
    uncertain(ctx, "nesting too deep");
    return;
  }
  const toks = tokenize(script, ctx);
  let segment: Tok[] = [];
  const end = () => {
    if (segment.length) simpleCommand(segment, ctx);
    segment = [];
  };
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.t === "op" && REDIRECT.has(t.v)) {
      const target = toks[k + 1];
      if (target?.t === "word") {
        if (t.v.includes(">")) {
          if (!(t.v === ">&" && /^\d+$/.test(target.v))) ctx.out.writes.push(target.v);
        }
        if (t.v === "<<") uncertain(ctx, "here-document");
        k++;
      }
      continue;
    }
    if (t.t === "op" && t.v === "<<") {
      uncertain(ctx, "here-document");
      k++;
      continue;
    }
    if (t.t === "op") {
      if (t.v === ";;") uncertain(ctx, "case statement");
      end();
      continue;
    }
    segment.push(t);
  }
  end();
}

type Word = { v: string; dynamic: boolean };

function simpleCommand(toks: Tok[], ctx: Ctx): void {
  let words = toks.filter((t): t is Tok & { t: "word" } => t.t === "word").map((t) => ({
    v: t.v,
    dynamic: t.dynamic,
  }));
  while (words.length && RESERVED.has(words[0].v)) words = words.slice(1);
  if (words.length === 0) return;
  const first = words[0].v;
  if (first === "for" || first === "select") return; // `for x in …` runs nothing itself
  if (first === "case") {
    uncertain(ctx, "case statement");
    return;
  }
  if (first === "function" || /^[\w-]+\(\)$/.test(first)) return;
  command(words, ctx);
}

/** Options of wrappers that take an argument. */
const WRAPPERS: Record<string, { argOpts: string[]; positional?: number }> = {
  env: { argOpts: ["-u", "--unset", "-C", "--chdir"] },
  nohup: { argOpts: [] },
  time: { argOpts: ["-f", "--format", "-o", "--output"] },
  nice: { argOpts: ["-n", "--adjustment"] },
  ionice: { argOpts: ["-c", "-n", "-p", "-t"] },
  timeout: { argOpts: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  stdbuf: { argOpts: ["-i", "-o", "-e"] },
  setsid: { argOpts: [] },
  exec: { argOpts: ["-a"] },
  command: { argOpts: [] },
  builtin: { argOpts: [] },
  sudo: { argOpts: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"] },
  doas: { argOpts: ["-u", "-C"] },
  xargs: {
    argOpts: ["-n", "-I", "-i", "-P", "-L", "-l", "-s", "-d", "-E", "-e", "-a", "--delimiter"],
  },
  chroot: { argOpts: [], positional: 1 },
  flock: { argOpts: ["-w", "-E"], positional: 1 },
  watch: { argOpts: ["-n", "-d"] },
  unbuffer: { argOpts: [] },
  caffeinate: { argOpts: [] },
  chronic: { argOpts: [] },
  strace: { argOpts: ["-o", "-e", "-p", "-s"] },
  ltrace: { argOpts: ["-o", "-e", "-p"] },
  unshare: { argOpts: [] },
  firejail: { argOpts: [] },
};

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash", "busybox"]);

function base(name: string): string {
  return name.slice(name.lastIndexOf("/") + 1);
}

function command(words: Word[], ctx: Ctx): void {
  // leading assignments
  let k = 0;
  while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k].v)) k++;
  words = words.slice(k);
  if (words.length === 0) return;
  const head = words[0];
  if (head.dynamic || /[*?[]/.test(head.v)) {
    uncertain(ctx, `command name computed at run time (${head.v})`);
  }
  ctx.out.commands.push(words.map((w) => w.v));
  const name = base(head.v);
  const rest = words.slice(1);

  if (name === "eval") {
    if (rest.some((w) => w.dynamic)) uncertain(ctx, "eval of a computed string");
    parseScript(rest.map((w) => w.v).join(" "), { out: ctx.out, depth: ctx.depth + 1 });
    return;
  }
  if (SHELLS.has(name)) {
    let j = 0;
    while (j < rest.length && rest[j].v.startsWith("-")) {
      const opt = rest[j].v;
      j++;
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(opt)) {
        const script = rest[j];
        if (!script) return;
        if (script.dynamic) uncertain(ctx, `${name} -c of a computed string`);
        parseScript(script.v, { out: ctx.out, depth: ctx.depth + 1 });
        return;
      }
      if (opt === "-o" || opt === "+o" || opt === "-O") j++;
    }
    if (j >= rest.length || name === "busybox") {
      if (name === "busybox" && rest.length) command(rest, ctx);
      return;
    }
    return; // `bash script.sh`: the script runs inside the sandbox
  }
  if (name === "find") {
    for (let j = 0; j < rest.length; j++) {
      if (["-exec", "-execdir", "-ok", "-okdir"].includes(rest[j].v)) {
        const stop = rest.findIndex((w, n) => n > j && (w.v === ";" || w.v === "+"));
        const inner = rest.slice(j + 1, stop < 0 ? undefined : stop);
        if (inner.length) command(inner, ctx);
        if (stop < 0) break;
        j = stop;
      }
    }
    return;
  }
  const w = WRAPPERS[name];
  if (!w) return;
  let j = 0;
  let positional = w.positional ?? 0;
  while (j < rest.length) {
    const v = rest[j].v;
    if (v === "--") {
      j++;
      break;
    }
    if (name === "env" && (v === "-S" || v === "--split-string")) {
      const s = rest[j + 1];
      if (s) {
        if (s.dynamic) uncertain(ctx, "env -S of a computed string");
        parseScript([s.v, ...rest.slice(j + 2).map((x) => x.v)].join(" "), {
          out: ctx.out,
          depth: ctx.depth + 1,
        });
      }
      return;
    }
    if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      j++;
      continue;
    }
    if (v.startsWith("-") && v.length > 1) {
      j += w.argOpts.includes(v) ? 2 : 1;
      continue;
    }
    if (name === "nice" && /^-\d+$/.test(v)) {
      j++;
      continue;
    }
    if (positional > 0) {
      positional--;
      j++;
      continue;
    }
    break;
  }
  const inner = rest.slice(j);
  if (inner.length) command(inner, ctx);
}
