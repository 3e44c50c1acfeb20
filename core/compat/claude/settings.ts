/**
 * `.claude/settings.json` and `settings.local.json` (and `~/.claude/settings.json`):
 * the `hooks` and `permissions` parts hs reads. Other keys are left alone.
 *
 * ```json
 * {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]},
 *  "permissions": {"allow": ["Bash(npm run test:*)"], "ask": ["Bash(git push:*)"], "deny": ["Read(./.env)"]}}
 * ```
 *
 * @module
 */
import { dirname, firstUse } from "../../early/mod.ts";
import { z } from "zod";
import { cachedFile } from "./layout.ts";

/** The hook events hs runs, at the stage that matches each. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
] as const;

/** A hook event hs runs. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One command hook of a settings file. */
export interface ClaudeHook {
  /** The event it runs at. */
  event: HookEvent;
  /** The matcher as written (`""`/`*`/absent: every call). */
  matcher: string;
  /** The shell command. */
  command: string;
  /** Seconds before it is stopped (default 60). */
  timeout: number;
  /** The settings file it came from. */
  file: string;
  /** The project directory (`CLAUDE_PROJECT_DIR`): the parent of the `.claude` it is in. */
  projectDir: string;
}

/** What one settings file says, read. */
export interface ClaudeSettings {
  /** The file. */
  file: string;
  /** Its command hooks, in file order. */
  hooks: ClaudeHook[];
  /** Its permission rules as written. */
  permissions: { allow: string[]; ask: string[]; deny: string[] };
  /** What could not be used (shown by `hs doctor`). */
  problems: string[];
}

const Handler = firstUse(() =>
  z.object({
    type: z.string().optional(),
    command: z.string().optional(),
    timeout: z.number().positive().optional(),
  }).passthrough()
);
const Group = firstUse(() =>
  z.object({
    matcher: z.string().optional(),
    hooks: z.array(Handler()).default([]),
  }).passthrough()
);
const Shape = firstUse(() =>
  z.object({
    hooks: z.record(z.string(), z.array(Group())).optional(),
    permissions: z.object({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
    }).passthrough().optional(),
  }).passthrough()
);

/** Parses a settings file's text. */
export function parseSettings(file: string, text: string): ClaudeSettings {
  const out: ClaudeSettings = {
    file,
    hooks: [],
    permissions: { allow: [], ask: [], deny: [] },
    problems: [],
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    out.problems.push("not valid JSON");
    return out;
  }
  const r = Shape().safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0];
    out.problems.push(`${i.path.join(".") || "settings"}: ${i.message}`);
    return out;
  }
  const projectDir = dirname(dirname(file));
  for (const [event, groups] of Object.entries(r.data.hooks ?? {})) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      out.problems.push(
        `hooks.${event}: an event hs does not run (it runs ${HOOK_EVENTS.join(", ")})`,
      );
      continue;
    }
    for (const g of groups) {
      for (const h of g.hooks) {
        if ((h.type ?? "command") !== "command" || !h.command) {
          out.problems.push(`hooks.${event}: only {"type": "command", "command"} hooks run in hs`);
          continue;
        }
        out.hooks.push({
          event: event as HookEvent,
          matcher: g.matcher ?? "",
          command: h.command,
          timeout: h.timeout ?? 60,
          file,
          projectDir,
        });
      }
    }
  }
  const p = r.data.permissions ?? {};
  out.permissions = { allow: p.allow ?? [], ask: p.ask ?? [], deny: p.deny ?? [] };
  return out;
}

/** Reads a settings file (cached by mtime); undefined when it cannot be read. */
export function readSettings(file: string): ClaudeSettings | undefined {
  return cachedFile(file, "claude-settings", (text) => parseSettings(file, text));
}

/** Does a hook's matcher select `value` (a Claude tool name, or SessionStart's source)? */
export function matches(matcher: string, value: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  if (/^[\w-]+$/.test(matcher)) return matcher === value;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return matcher === value;
  }
}
