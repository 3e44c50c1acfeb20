/**
 * What the next request holds, by section, with token counts: the report
 * behind `/context`, the REPL's status line and `hs session show`.
 *
 * @module
 */
import type { ResolvedLimits } from "../providers/mod.ts";
import { type Budget, messageChars, type SessionEntry, tokensOfChars } from "../session/mod.ts";

/** One section of the next request. */
export interface ContextSection {
  /** "system prompt", "skills", "tools", "summary", "user", "assistant", "tool results". */
  name: string;
  /** Estimated tokens (calibrated; the sections add up to the total). */
  tokens: number;
  /** How many items it holds (tools, messages), when that means something. */
  items?: number;
}

/** The next request of a session, measured. */
export interface ContextReport {
  /** The provider the request goes to. */
  provider: string;
  /** The model requested. */
  model: string;
  /** The model's window and output limit, and where the window came from. */
  limits: ResolvedLimits;
  /** Tokens the next request may hold before it is compacted (undefined: never by size). */
  compactAt?: number;
  /** The total and how it was obtained. */
  budget: Budget;
  /** The request's sections (system prompt, skills, tools, messages by role), in tokens. */
  sections: ContextSection[];
  /** Message files marked compacted (still on disk). */
  compacted: number;
}

/** Inputs of {@link contextSections} (sizes in characters). */
export interface ContextParts {
  /** The provider the request goes to. */
  provider: string;
  /** The model requested. */
  model: string;
  /** The model's window and output limit. */
  limits: ResolvedLimits;
  /** Tokens the request may hold before it is compacted (undefined: never by size). */
  compactAt?: number;
  /** The total the sections are scaled to. */
  budget: Budget;
  /** The system prompt without the skill catalog. */
  system: number;
  /** The skill catalog. */
  skills: number;
  /** The size of the tool schemas. */
  toolsChars: number;
  /** The number of tools. */
  tools: number;
  /** The messages the next request holds. */
  view: readonly SessionEntry[];
  /** Message files marked compacted. */
  compacted: number;
}

/** Splits a budget into sections, scaled so that they add up to its total. */
export function contextSections(p: ContextParts): ContextReport {
  const raw = new Map<string, { tokens: number; items: number }>();
  const add = (name: string, tokens: number, items = 0) => {
    const cur = raw.get(name) ?? { tokens: 0, items: 0 };
    cur.tokens += tokens;
    cur.items += items;
    raw.set(name, cur);
  };
  add("system prompt", tokensOfChars(p.system));
  if (p.skills > 0) add("skills", tokensOfChars(p.skills));
  add("tools", tokensOfChars(p.toolsChars), p.tools);
  for (const e of p.view) {
    const t = tokensOfChars(messageChars(e.message));
    const name = e.summarizes
      ? "summary"
      : e.message.role === "tool_result"
      ? "tool results"
      : e.message.role;
    add(name, t, 1);
  }
  let sum = 0;
  for (const v of raw.values()) sum += v.tokens;
  const scale = p.budget.tokens / Math.max(1, sum);
  const sections: ContextSection[] = [];
  let given = 0;
  const entries = [...raw.entries()];
  entries.forEach(([name, v], i) => {
    const tokens = i === entries.length - 1
      ? Math.max(0, p.budget.tokens - given)
      : Math.round(v.tokens * scale);
    given += tokens;
    const hasItems = name !== "system prompt" && name !== "skills";
    sections.push(hasItems ? { name, tokens, items: v.items } : { name, tokens });
  });
  return {
    provider: p.provider,
    model: p.model,
    limits: p.limits,
    compactAt: p.compactAt,
    budget: p.budget,
    sections,
    compacted: p.compacted,
  };
}
