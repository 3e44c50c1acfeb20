/**
 * Scripted answers in the OpenAI Chat Completions wire format. Thinking is sent
 * as `reasoning_content` (the DeepSeek / llama.cpp convention).
 *
 * @module
 */
import {
  chunks,
  chunkSize,
  dataFrame,
  errorTypeFor,
  turnStop,
  type WireContext,
  type WireEncoder,
} from "./wire_common.ts";

const STOPS: Record<string, string> = { end: "stop", tool_calls: "tool_calls", length: "length" };

function finishReason(ctx: WireContext): string {
  const s = turnStop(ctx.turn);
  return STOPS[s] ?? s;
}

function usage(ctx: WireContext) {
  const cached = ctx.usage.cache_read_input_tokens ?? 0;
  const prompt = ctx.usage.input_tokens + cached;
  return {
    prompt_tokens: prompt,
    completion_tokens: ctx.usage.output_tokens,
    total_tokens: prompt + ctx.usage.output_tokens,
    ...(cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

/** OpenAI chat encoder. */
export const openaiWire: WireEncoder = {
  callIdPrefix: "call_scripted_",
  json(ctx) {
    const message: Record<string, unknown> = {
      role: "assistant",
      content: ctx.turn.text ?? null,
      refusal: null,
    };
    if (ctx.turn.thinking) message.reasoning_content = ctx.turn.thinking.text;
    if (ctx.toolCalls.length > 0) {
      message.tool_calls = ctx.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.input === undefined ? "" : JSON.stringify(c.input) },
      }));
    }
    return {
      id: `chatcmpl-scripted-${ctx.n}`,
      object: "chat.completion",
      created: ctx.created,
      model: ctx.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(ctx) }],
      usage: usage(ctx),
      system_fingerprint: "fp_scripted",
    };
  },
  frames(ctx) {
    const size = chunkSize(ctx.turn);
    const base = {
      id: `chatcmpl-scripted-${ctx.n}`,
      object: "chat.completion.chunk",
      created: ctx.created,
      model: ctx.model,
      system_fingerprint: "fp_scripted",
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      dataFrame({
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        usage: null,
      });
    const f: string[] = [chunk({ role: "assistant", content: "", refusal: null })];
    const t = ctx.turn;
    if (t.thinking) {
      for (const piece of chunks(t.thinking.text, size)) {
        f.push(chunk({ reasoning_content: piece }));
      }
    }
    if (t.text) { for (const piece of chunks(t.text, size)) f.push(chunk({ content: piece })); }
    ctx.toolCalls.forEach((call, index) => {
      f.push(chunk({
        tool_calls: [{
          index,
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: "" },
        }],
      }));
      const args = call.input === undefined ? "" : JSON.stringify(call.input);
      for (const piece of chunks(args, size)) {
        f.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    f.push(chunk({}, finishReason(ctx)));
    f.push(dataFrame({ ...base, choices: [], usage: usage(ctx) }));
    f.push("data: [DONE]\n\n");
    return f;
  },
  errorFrame() {
    return dataFrame({
      error: {
        message: "The server had an error while processing your request.",
        type: "server_error",
        param: null,
        code: null,
      },
    });
  },
  errorBody(status, message) {
    return { error: { message, type: errorTypeFor(status), param: null, code: null } };
  },
};
