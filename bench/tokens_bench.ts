/**
 * Long sessions: the token estimate of a 1,000-message session (the budget the
 * REPL's status line and the compaction threshold read before every request),
 * cold (message objects never measured: every size computed) and warm (sizes
 * cached per message), and planning a compaction over the same session.
 * Budget: ≤ 5 ms for 1,000 messages.
 *
 * `deno bench -A bench/tokens_bench.ts`
 *
 * @module
 */
import {
  contextView,
  type ConversationMessage,
  estimateBudget,
  planCompaction,
  type SessionEntry,
} from "../core/mod.ts";

const prose = "The quick brown fox jumps over the lazy dog; then it reads a file. ";

/** A 1,000-message session: turns of a user message, a tool call, its result, an answer. */
function session(): SessionEntry[] {
  const out: SessionEntry[] = [];
  let seq = 1;
  const add = (message: ConversationMessage, extra: Partial<SessionEntry> = {}) => {
    out.push({ name: `${String(seq).padStart(4, "0")}-x.md`, seq, message, ...extra });
    seq++;
  };
  for (let turn = 0; out.length < 1000; turn++) {
    add({ role: "user", seq, text: prose.repeat(3) });
    const id = `toolu_${turn}`;
    add({
      role: "assistant",
      seq,
      blocks: [
        { type: "text", text: prose },
        { type: "tool_call", id, name: "read", input: { path: `src/file_${turn}.ts` } },
      ],
    });
    add({
      role: "tool_result",
      seq,
      callId: id,
      tool: "read",
      text: prose.repeat(40),
      error: false,
    });
    add(
      { role: "assistant", seq, blocks: [{ type: "text", text: prose.repeat(4) }] },
      {
        usage: { input_tokens: 1000 + 900 * turn, output_tokens: 120 },
        provider: "p",
        model: "m",
      },
    );
  }
  return out.slice(0, 1000);
}

const fixed = { systemChars: 4000, toolsChars: 12000 };
const current = { provider: "p", model: "m" };
const warm = contextView(session());

Deno.bench("token estimate, 1,000 messages, cold (sizes computed)", (b) => {
  const view = contextView(session());
  b.start();
  estimateBudget(view, fixed, current);
  b.end();
});

Deno.bench("token estimate, 1,000 messages, warm (sizes cached)", () => {
  estimateBudget(warm, fixed, current);
});

Deno.bench("compaction plan, 1,000 messages", () => {
  planCompaction(warm, { keepTurns: 2, tailTokens: 60_000, ratio: 1 });
});
