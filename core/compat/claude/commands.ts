/**
 * `.claude/commands/<name>.md`: slash commands of the REPL (`/<name> args`). The
 * frontmatter's `description`, `argument-hint` and `allowed-tools` are read; the body
 * is the prompt, with `$ARGUMENTS` (every argument) and `$1`, `$2`… (one each)
 * replaced, and each line starting with `!` (and each inline `` !`command` ``) replaced by
 * what that shell command printed — run as a `bash` tool call through the seam (guards, floor, sandbox), like
 * any other.
 *
 * @module
 */
import type { ClaudeLayout } from "./layout.ts";
import { cachedFile, markdownFiles } from "./layout.ts";
import { frontmatter, nameList, text, YamlPending } from "./markdown.ts";

/** One slash command. */
export interface ClaudeCommand {
  /** `/name`. */
  name: string;
  /** One line for `/help`. */
  description: string;
  /** The argument hint (`[message]`). */
  argumentHint: string;
  /** Tools it expects (`allowed-tools`), as written; hs never widens the floor for them. */
  allowedTools: string[];
  /** The body (the prompt template). */
  body: string;
  /** The file. */
  path: string;
  /** Why its frontmatter could not be read, if so. */
  problem?: string;
}

function parse(name: string, path: string, t: string): ClaudeCommand {
  const fm = frontmatter(t);
  const firstLine = fm.body.split("\n").find((l) => l.trim() !== "" && !l.startsWith("!")) ?? "";
  return {
    name,
    description: text(fm.meta.description) || firstLine.replace(/^#+\s*/, "").slice(0, 80),
    argumentHint: text(fm.meta["argument-hint"]),
    allowedTools: nameList(fm.meta["allowed-tools"]) ?? [],
    body: fm.body,
    path,
    problem: fm.problem,
  };
}

/** The commands the layout holds (a more local file wins per name), sorted by name. */
export function claudeCommands(layout: ClaudeLayout): ClaudeCommand[] {
  const out: ClaudeCommand[] = [];
  for (const [name, path] of markdownFiles(layout.current().commandDirs)) {
    const c = pendingAsAbsent(() =>
      cachedFile(path, "claude-command", (t) => parse(name, path, t))
    );
    if (c) out.push(c);
  }
  return out;
}

/** `read()`, or undefined while the YAML reader loads (the file is listed once it has). */
export function pendingAsAbsent<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch (err) {
    if (err instanceof YamlPending) return undefined;
    throw err;
  }
}

/** Splits a command line's arguments: words, with "double" or 'single' quotes kept together. */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The body with `$ARGUMENTS` and `$1…$9` replaced. */
export function expandArguments(body: string, args: string): string {
  const words = splitArguments(args);
  return body.replace(/\$ARGUMENTS|\$(\d)/g, (all, n) => {
    if (all === "$ARGUMENTS") return args.trim();
    return words[Number(n) - 1] ?? "";
  });
}

/**
 * The prompt of a command: arguments expanded, then every `!command` line replaced by
 * `run(command)`'s output (the caller runs it through the seam).
 */
export async function commandPrompt(
  c: ClaudeCommand,
  args: string,
  run: (command: string) => Promise<string>,
): Promise<string> {
  const lines = expandArguments(c.body, args).split("\n");
  const out: string[] = [];
  for (const line of lines) {
    const whole = /^!\s*([^`].*?)\s*$/.exec(line);
    if (whole) {
      out.push(await run(whole[1]));
      continue;
    }
    // inline: !`command` anywhere in a line
    let done = "";
    let rest = line;
    for (let m = /!`([^`]+)`/.exec(rest); m; m = /!`([^`]+)`/.exec(rest)) {
      done += rest.slice(0, m.index) + (await run(m[1]));
      rest = rest.slice(m.index + m[0].length);
    }
    out.push(done + rest);
  }
  const text = out.join("\n").trim();
  return args.trim() && !/\$ARGUMENTS|\$\d/.test(c.body)
    ? `${text}\n\nARGUMENTS: ${args.trim()}`
    : text;
}
