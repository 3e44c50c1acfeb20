/**
 * Bots (seed 000 §2): `.prompt` files with YAML frontmatter and the bot's
 * prompt as the body. The frontmatter selects the behavior —
 * `behavior.program` (a `.scm` file, resolved from the bot file, inside the
 * pack), its JSON `configuration` and its `bindings` — the tools the bot may
 * use (its effect ceiling), and how it attaches: `attach: foreground` makes
 * it the foreground agent's behavior; every other bot is a named agent (the
 * file stem) living in a `scope` (session by default, project or global).
 *
 * @module
 */
import { basename, dirname, firstUse, resolve } from "../early/mod.ts";
import { z } from "zod";
import { type Json, yamlNow } from "../base/mod.ts";
import { insideRoot, PackError } from "./manifest.ts";
import { describeIssue, nodePosition, type Position } from "./positions.ts";

/** Where a named agent's instance lives. */
export type BotScope = "session" | "project" | "global";

/** A receiver the host pins for the bot (seed 000 §2 "bindings"). */
export interface Binding {
  /** The pack whose state the binding reaches. */
  plugin: string;
  /** The scope of that state. */
  scope: BotScope;
  /** The methods the bot may call on it. */
  methods: string[];
}

/** A parsed bot. */
export interface BotSpec {
  /** The `.prompt` file. */
  file: string;
  /** The file stem: the agent's name. */
  name: string;
  /** The prompt body. */
  prompt: string;
  /** Tools the bot may use (its effect ceiling); undefined: the host's. */
  tools?: string[];
  /** `foreground`: the bot is the main agent's behavior; `named`: an agent of its own. */
  attach: "foreground" | "named";
  /** For named agents. */
  scope?: BotScope;
  /** The bot's behavior program, if it has one. */
  behavior?: {
    /** Absolute program path. */
    program: string;
    configuration: Json;
    bindings: Record<string, Binding>;
  };
  /** Why the bot does not attach (it is still listed), if it does not. */
  problem?: string;
}

const HOLE = /\{\{.*?\}\}|\$\{(?!PLUGIN_)[^}]*\}/;

const frontmatterSchema = firstUse(() =>
  z.object({
    tools: z.array(z.string()).optional(),
    attach: z.enum(["foreground"]).optional(),
    scope: z.enum(["session", "project", "global"]).optional(),
    environment: z.unknown().optional(),
    behavior: z.object({
      program: z.string({ error: "behavior.program is required when behavior is present" }),
      configuration: z.unknown().optional(),
      bindings: z.record(
        z.string(),
        z.object({
          plugin: z.string(),
          scope: z.enum(["session", "project", "global"]).default("session"),
          methods: z.array(z.string()).default([]),
        }).strict(),
      ).optional(),
    }).strict().optional(),
  }).passthrough()
);

/** What leaving a key out means, added to "expected …" (issue 27 point 5). */
const FRONTMATTER_HINTS: Record<string, string> = {
  attach: "(or no attach: a named bot)",
  scope: "(a named bot's scope; session when left out)",
};

/** A frontmatter position as a position in the bot file (the YAML starts below `---`). */
function belowFence(p: Position | undefined): Position | undefined {
  return p && { line: p.line + 1, col: p.col };
}

/** A YAML parse error at its place in the bot file. */
function yamlError(file: string, err: unknown): PackError {
  const e = err as Error & { linePos?: { line: number; col: number }[] };
  const first = e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
  const at = e.linePos?.[0];
  const expected = /expected|must/i.test(first)
    ? ""
    : ' (expected "key: value" lines between the --- fences)';
  return new PackError(
    file,
    `frontmatter is not valid YAML: ${first}${expected}`,
    belowFence(at && { line: at.line, col: at.col }),
  );
}

/** Splits `---\nyaml\n---\nbody`. */
function split(text: string): { yaml: string; body: string } | undefined {
  const t = text.replace(/^\uFEFF/, "");
  if (!t.startsWith("---\n") && !t.startsWith("---\r\n")) return undefined;
  const end = t.search(/\r?\n---\r?\n|\r?\n---$/);
  if (end < 0) return undefined;
  const yaml = t.slice(t.indexOf("\n") + 1, end);
  const after = t.slice(end).replace(/^\r?\n---(\r?\n)?/, "");
  return { yaml, body: after };
}

/** Parses a bot file of a pack. Throws a {@link PackError} for a malformed bot. */
export function readBot(file: string, root: string): BotSpec {
  const text = Deno.readTextFileSync(file);
  const name = basename(file).replace(/\.prompt$/, "");
  const parts = split(text);
  if (!parts) return { file, name, prompt: text.trim(), attach: "named", scope: "session" };
  const YAML = yamlNow(); // Packs.load awaits loadYaml() before reading any pack
  if (!YAML) throw new PackError(file, "the YAML reader is still loading: load the pack again");
  let data: unknown;
  try {
    data = YAML.parse(parts.yaml) ?? {};
  } catch (err) {
    throw yamlError(file, err);
  }
  const r = frontmatterSchema().safeParse(data);
  if (!r.success) {
    const d = describeIssue(r.error.issues[0], data, frontmatterSchema(), FRONTMATTER_HINTS);
    throw new PackError(file, d.message, belowFence(nodePosition(parts.yaml, d.path, d.key)));
  }
  const fm = r.data;
  if (fm.attach === "foreground" && fm.scope) {
    throw new PackError(file, "a foreground bot has no scope (remove scope:)");
  }
  const bot: BotSpec = {
    file,
    name,
    prompt: parts.body.trim(),
    tools: fm.tools,
    attach: fm.attach === "foreground" ? "foreground" : "named",
    scope: fm.attach === "foreground" ? undefined : fm.scope ?? "session",
  };
  for (const key of ["program", "environment", "bindings"] as const) {
    const v = key === "environment" ? fm.environment : fm.behavior?.[key];
    if (v !== undefined && HOLE.test(JSON.stringify(v))) {
      throw new PackError(file, `template holes cannot replace ${key}`);
    }
  }
  if (fm.environment !== undefined) {
    bot.problem = "environment (a JS module run in the host) is not supported: the bot does " +
      "not attach; keep the behavior in Scheme (behavior.program)";
  }
  if (fm.behavior) {
    const program = resolve(dirname(file), fm.behavior.program);
    if (!insideRoot(program, root)) {
      throw new PackError(file, `behavior.program "${fm.behavior.program}" escapes the pack root`);
    }
    try {
      if (!Deno.statSync(program).isFile) throw new Error();
    } catch {
      throw new PackError(file, `behavior.program "${fm.behavior.program}" names a missing file`);
    }
    bot.behavior = {
      program,
      configuration: (fm.behavior.configuration ?? {}) as Json,
      bindings: (fm.behavior.bindings ?? {}) as Record<string, Binding>,
    };
  }
  return bot;
}
