/**
 * The model of `hs packs test`: a runtime plugin whose provider answers each request with the
 * next answer of a cassette (core/packtest/script.ts), in the Anthropic Messages shape the
 * built-in adapter parses — the loop, the seam and the tools run as in any turn; only the
 * model is recorded. Past the last answer it ends the turn (and says so in the report).
 *
 * @module
 */
import type { AssistantBlock, ModelProvider } from "../contracts/mod.ts";
import type { RuntimePlugin } from "../plugins/mod.ts";
import type { CassetteAnswer } from "./script.ts";

/** The provider's name (`RunOptions.provider`). */
export const TEST_PROVIDER = "hs-packs-test";
/** Its only model. */
export const TEST_MODEL = "cassette";

/** The answers a test's provider gives, one per request. */
export class AnswerQueue {
  #answers: CassetteAnswer[] = [];
  /** Requests answered past the end of the queue. */
  overrun = 0;

  /** The answers of the next user turn. */
  load(answers: CassetteAnswer[]): void {
    this.#answers = [...answers];
  }

  /** Answers not consumed yet. */
  get remaining(): number {
    return this.#answers.length;
  }

  /** The next answer (an empty end of turn when none is left). */
  next(): CassetteAnswer {
    const a = this.#answers.shift();
    if (a) return a;
    this.overrun++;
    return { blocks: [{ type: "text", text: "" }], stop: "end" };
  }
}

function native(a: CassetteAnswer): unknown {
  const content = a.blocks.map((b: AssistantBlock) =>
    b.type === "text"
      ? { type: "text", text: b.text }
      : b.type === "thinking"
      ? { type: "thinking", thinking: b.text, signature: b.signature }
      : { type: "tool_use", id: b.id, name: b.name, input: b.input ?? {} }
  );
  const calls = a.blocks.some((b) => b.type === "tool_call");
  const stop = a.stop === "length"
    ? "max_tokens"
    : a.stop === "end" || (!a.stop && !calls)
    ? "end_turn"
    : "tool_use";
  return {
    id: "msg_hs_packs_test",
    type: "message",
    role: "assistant",
    model: TEST_MODEL,
    content,
    stop_reason: stop,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

/** The runtime plugin registering the cassette provider over `queue`. */
export function cassettePlugin(queue: AnswerQueue): RuntimePlugin {
  const provider: ModelProvider = {
    name: TEST_PROVIDER,
    description: "the recorded model turns of hs packs test",
    protocol: "anthropic",
    ready: () => Promise.resolve({ ready: true, reason: "a cassette" }),
    defaultModel: () => Promise.resolve(TEST_MODEL),
    send: () => Promise.resolve(native(queue.next())),
  };
  return {
    id: "hs-packs-test",
    version: "1.0.0",
    apiVersion: 1,
    setup(ctx) {
      ctx.models.register(provider, [{ id: TEST_MODEL }]);
    },
  };
}
