/**
 * The `compact` stage's built-in hook, `10-summarize`: one model request that
 * asks the session's own model for a summary of the older messages. The
 * request repeats the conversation's system prompt, tools and message prefix,
 * so a provider's prompt cache serves most of it; the instruction comes last.
 * A same-basename executable in `.harness/hooks.d/compact/` replaces it (it
 * gets the same JSON and prints `{"summary": "…"}`).
 *
 * @module
 */
import { HarnessError, type ProviderEvent } from "../base/mod.ts";
import { type StageHook, stageHook } from "./stage.ts";
import { str } from "./values.ts";

/** What the summary must keep: the instruction sent as the last user message. */
export const COMPACT_INSTRUCTION =
  `Summarize the conversation above for yourself: the summary replaces these messages, and you will continue the session from it without seeing them again.

Keep:
- the user's goals, requests and constraints (quote short ones verbatim);
- decisions taken and why;
- files read, created or changed (with their paths) and what matters in them;
- commands run and their outcome; errors met and how they were solved;
- what was done last and what remains to do.

Leave out what no longer matters (greetings, superseded attempts, long tool output). Do not call any tool. Answer with the summary only, in concise Markdown.`;

/** The instruction with the user's focus (`/compact <focus>`), if any. */
export function compactInstruction(focus = ""): string {
  const f = focus.trim();
  return f ? `${COMPACT_INSTRUCTION}\n\nPay particular attention to: ${f}` : COMPACT_INSTRUCTION;
}

/** The compact stage's built-in hook. */
export const compactHooks: StageHook[] = [
  stageHook({
    stage: "compact",
    name: "10-summarize",
    async run(input, ctx) {
      // an earlier hook (05-…) may have written the summary itself
      if (str(input.summary).trim()) return input;
      const t = ctx.turn;
      const payload: Record<string, unknown> = {
        messages: Array.isArray(input.messages) ? input.messages : [],
        tools: Array.isArray(input.tools) ? input.tools : [],
        system: str(input.system),
        model: str(input.model) || t.model,
      };
      const native = await t.modelProvider().send(payload as never, t.model, {
        // the summary is not part of the transcript; retries are worth showing
        emit: (e: ProviderEvent) => {
          if (e.type === "retry") t.emit(e);
        },
        signal: t.signal,
        session: { dir: t.session.dir, cwd: t.session.conf.cwd },
      });
      const answer = t.adapter().parseResponse(native);
      const summary = answer.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("")
        .trim();
      if (!summary) {
        throw new HarnessError(
          `the model answered the summary request without text (stop: ${answer.stop})`,
        );
      }
      return { ...input, summary, usage: answer.usage, model: answer.model || t.model };
    },
  }),
];
