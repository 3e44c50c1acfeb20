/**
 * Prompt sections of plugins, rendered fail open: a section that throws or
 * returns something other than a string is left out of the system prompt and
 * logged without its exception text (it may hold secrets); the turn goes on.
 *
 * @module
 */
import { ownerLabel, type PromptSource } from "../base/mod.ts";
import type { OwnedRegistry } from "./registry.ts";

/** The registered prompt sections, each wrapped so that a failure leaves an empty section. */
export function safePromptSources(
  registry: OwnedRegistry<PromptSource>,
  log: (line: string) => void,
): PromptSource[] {
  return registry.entries().map((e) => ({
    id: e.value.id,
    order: e.value.order,
    render: async () => {
      try {
        const text = await e.value.render();
        if (typeof text === "string") return text;
        log(`[prompts] section "${e.key}" of ${ownerLabel(e.owner)} returned no text; left out`);
      } catch {
        log(`[prompts] section "${e.key}" of ${ownerLabel(e.owner)} failed; left out`);
      }
      return "";
    },
  }));
}
