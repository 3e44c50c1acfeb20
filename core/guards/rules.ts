/**
 * Permission rules: `allow | ask | deny` over a tool name and an argument
 * pattern — `bash(git *)`, `write_file(src/**)`, `read_file(**\/.env)`,
 * `my_tool`. Deny wins over ask, ask over allow. For `bash` every command
 * the script would run (see {@link analyseShell}) is matched; a script whose
 * commands cannot all be known gets the strictest decision any `bash` rule
 * could give.
 *
 * @module
 */
import { relative } from "../early/mod.ts";
import { HarnessError } from "../base/mod.ts";
import { analyseShell, type ShellAnalysis } from "./shell_parse.ts";
import { expandPath, type PolicyPlaces, within } from "./policy.ts";

/** A rule's verdict. */
export type Verdict = "allow" | "ask" | "deny";

/** One parsed rule. */
export interface Rule {
  /** What the rule decides. */
  verdict: Verdict;
  /** The rule as written (shown in audit events and messages). */
  text: string;
  /** Where it came from (`default`, a settings file, `command line`). */
  source: string;
  /** Matches the tool name. */
  tool: RegExp;
  /** Argument pattern source; undefined = any arguments. */
  pattern?: string;
  /** Matches the arguments (undefined: any arguments). */
  arg?: RegExp;
}

const RANK: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };

/** Rules every floor starts with (secrets are never read by the file tools). */
export const DEFAULT_RULES: Record<Verdict, string[]> = {
  deny: [
    "read_file(**/.env)",
    "read_file(**/.env.*)",
    "read_file(**/.auth.json)",
    "write_file(**/.auth.json)",
    "edit_file(**/.auth.json)",
    "read_file(**/.auth-cache.json)",
    "write_file(**/.auth-cache.json)",
    "edit_file(**/.auth-cache.json)",
  ],
  ask: [],
  allow: [],
};

/** Glob to regex: `**` any depth, `*` any run (within a path segment for paths), `?` one char. */
export function globToRegExp(glob: string, pathLike: boolean): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        if (pathLike && glob[i + 2] === "/") {
          re += "(?:.*/)?";
          i += 2;
        } else {
          re += ".*";
          i++;
        }
      } else re += pathLike ? "[^/]*" : ".*";
    } else if (c === "?") re += pathLike ? "[^/]" : ".";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  // `git *` also matches a bare `git`
  if (!pathLike && re.endsWith(" .*")) re = re.slice(0, -3) + "(?: .*)?";
  return new RegExp(`^${re}$`, "s");
}

const PATH_TOOLS = new Set(["read_file", "write_file", "edit_file"]);

/** Parses `tool(pattern)` or `tool`; throws a HarnessError with a fix hint. */
export function parseRule(text: string, verdict: Verdict, source: string): Rule {
  const m = /^\s*([\w*.:-]+)\s*(?:\((.*)\))?\s*$/s.exec(text);
  if (!m) {
    throw new HarnessError(
      `bad permission rule "${text}" in ${source}`,
      'write rules as tool or tool(pattern), e.g. "bash(git *)" or "write_file(src/**)"',
    );
  }
  const tool = globToRegExp(m[1], false);
  const pattern = m[2]?.trim();
  const rule: Rule = { verdict, text: text.trim(), source, tool, pattern };
  if (pattern !== undefined && pattern !== "" && pattern !== "*") {
    rule.arg = globToRegExp(pattern, PATH_TOOLS.has(m[1]));
  }
  return rule;
}

/** The outcome of {@link evaluate}. */
export interface RuleDecision {
  /** The decision. */
  verdict: Verdict;
  /** The deciding rule's text (or `default` when none matched). */
  rule: string;
  /** Why (e.g. a script that cannot be fully analysed). */
  reason?: string;
}

/** What a rule is matched against, derived from a call's input. */
export interface Subject {
  /** The tool's name. */
  tool: string;
  /** For file tools: the absolute path. */
  path?: string;
  /** For bash: the analysed script. */
  shell?: ShellAnalysis;
  /** Other tools: the compact JSON input. */
  text?: string;
}

/** Builds the subject of a call. */
export function subjectOf(tool: string, input: unknown, places: PolicyPlaces): Subject {
  const obj = (typeof input === "object" && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  if (tool === "bash" && typeof obj.command === "string") {
    return { tool, shell: analyseShell(obj.command), text: obj.command };
  }
  if (typeof obj.path === "string" && obj.path.trim() !== "") {
    return { tool, path: expandPath(obj.path, places) };
  }
  let text = "";
  try {
    text = JSON.stringify(input) ?? "";
  } catch { /* unserialisable input matches no argument pattern */ }
  return { tool, text };
}

function pathMatches(rule: Rule, path: string, places: PolicyPlaces): boolean {
  if (!rule.arg) return true;
  if (rule.pattern!.startsWith("/") || rule.pattern!.startsWith("~")) {
    const abs = expandPath(rule.pattern!, places);
    return globToRegExp(abs, true).test(path) || within(path, abs);
  }
  if (rule.arg.test(path)) return true;
  if (within(path, places.workspace)) return rule.arg.test(relative(places.workspace, path));
  // outside the workspace a relative pattern like **/.env still means "any such file"
  return rule.pattern!.startsWith("**/") && rule.arg.test(path.replace(/^\//, ""));
}

function commandMatches(rule: Rule, words: string[]): boolean {
  if (!rule.arg) return true;
  const joined = words.join(" ");
  if (rule.arg.test(joined)) return true;
  const base = words[0].slice(words[0].lastIndexOf("/") + 1);
  return base !== words[0] && rule.arg.test([base, ...words.slice(1)].join(" "));
}

/** Decides a call from the rules: deny first, then ask, then allow; none = `fallback`. */
export function evaluate(
  rules: Rule[],
  subject: Subject,
  places: PolicyPlaces,
  fallback: Verdict = "allow",
): RuleDecision {
  const mine = rules.filter((r) => r.tool.test(subject.tool));
  let best: RuleDecision | undefined;
  const consider = (r: Rule, reason?: string) => {
    if (!best || RANK[r.verdict] > RANK[best.verdict]) {
      best = { verdict: r.verdict, rule: r.text, reason };
    }
  };
  for (const r of mine) {
    if (subject.shell) {
      const hit = subject.shell.commands.find((c) => commandMatches(r, c));
      if (hit) {
        consider(r, r.verdict === "allow" ? undefined : `\`${hit.join(" ")}\` matches ${r.text}`);
      }
    } else if (subject.path !== undefined) {
      if (pathMatches(r, subject.path, places)) consider(r, `${subject.path} matches ${r.text}`);
    } else if (!r.arg || r.arg.test(subject.text ?? "")) consider(r);
  }
  if (subject.shell?.uncertain) {
    // a command we cannot see could match any rule: take the strictest one
    const strictest = mine.filter((r) =>
      r.arg
    ).sort((a, b) => RANK[b.verdict] - RANK[a.verdict])[0];
    if (strictest && (!best || RANK[strictest.verdict] > RANK[best.verdict])) {
      best = {
        verdict: strictest.verdict,
        rule: strictest.text,
        reason: `the script cannot be fully analysed (${
          subject.shell.reasons.join("; ")
        }), so the strictest bash rule applies`,
      };
    }
  }
  if (best && best.verdict === "allow" && subject.shell && subject.shell.commands.length > 1) {
    // allow only when every command is allowed by some rule or the fallback allows
    const allAllowed = subject.shell.commands.every((c) =>
      mine.some((r) => r.verdict === "allow" && commandMatches(r, c))
    );
    if (!allAllowed && fallback !== "allow") {
      return { verdict: fallback, rule: "default", reason: "not every command is allowed" };
    }
  }
  return best ?? { verdict: fallback, rule: "default" };
}

/** Parses a rule set (`{allow, ask, deny}` lists) from one source. */
export function parseRules(
  sets: Partial<Record<Verdict, string[]>> | undefined,
  source: string,
): Rule[] {
  const out: Rule[] = [];
  for (const v of ["deny", "ask", "allow"] as const) {
    for (const t of sets?.[v] ?? []) out.push(parseRule(t, v, source));
  }
  return out;
}
