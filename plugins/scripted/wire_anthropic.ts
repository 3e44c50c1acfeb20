/**
 * Scripted answers in the Anthropic Messages wire format.
 *
 * @module
 */
import {
  chunks,
  chunkSize,
  errorTypeFor,
  namedFrame,
  turnStop,
  type WireContext,
  type WireEncoder,
} from "./wire_common.ts";

const STOPS: Record<string, string> = {
  end: "end_turn",
  tool_calls: "tool_use",
  length: "max_tokens",
};

function stopReason(ctx: WireContext): string {
  const s = turnStop(ctx.turn);
  return STOPS[s] ?? s;
}

function contentBlocks(ctx: WireContext): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const t = ctx.turn;
  if (t.thinking) {
    out.push({ type: "thinking", thinking: t.thinking.text, signature: t.thinking.signature });
  }
  if (t.text !== undefined && t.text !== "") out.push({ type: "text", text: t.text });
  for (const c of ctx.toolCalls) {
    out.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
  }
  return out;
}

/** `input_tokens` and, when reported, the two cache fields of Anthropic usage. */
function cacheUsage(ctx: WireContext): Record<string, number> {
  const u: Record<string, number> = { input_tokens: ctx.usage.input_tokens };
  if (ctx.usage.cache_creation_input_tokens !== undefined) {
    u.cache_creation_input_tokens = ctx.usage.cache_creation_input_tokens;
  }
  if (ctx.usage.cache_read_input_tokens !== undefined) {
    u.cache_read_input_tokens = ctx.usage.cache_read_input_tokens;
  }
  return u;
}

/** Anthropic encoder. */
export const anthropicWire: WireEncoder = {
  callIdPrefix: "toolu_scripted_",
  json(ctx) {
    return {
      id: `msg_scripted_${ctx.n}`,
      type: "message",
      role: "assistant",
      model: ctx.model,
      content: contentBlocks(ctx),
      stop_reason: stopReason(ctx),
      stop_sequence: null,
      usage: { ...cacheUsage(ctx), output_tokens: ctx.usage.output_tokens },
    };
  },
  frames(ctx) {
    const size = chunkSize(ctx.turn);
    const f: string[] = [];
    f.push(namedFrame("message_start", {
      type: "message_start",
      message: {
        id: `msg_scripted_${ctx.n}`,
        type: "message",
        role: "assistant",
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...cacheUsage(ctx), output_tokens: 1 },
      },
    }));
    let index = 0;
    const t = ctx.turn;
    if (t.thinking) {
      f.push(namedFrame("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "" },
      }));
      for (const piece of chunks(t.thinking.text, size)) {
        f.push(namedFrame("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "thinking_delta", thinking: piece },
        }));
      }
      f.push(namedFrame("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: t.thinking.signature },
      }));
      f.push(namedFrame("content_block_stop", { type: "content_block_stop", index }));
      index++;
    }
    if (t.text !== undefined && t.text !== "") {
      f.push(namedFrame("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }));
      if (index === 0) f.push(namedFrame("ping", { type: "ping" }));
      for (const piece of chunks(t.text, size)) {
        f.push(namedFrame("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: piece },
        }));
      }
      f.push(namedFrame("content_block_stop", { type: "content_block_stop", index }));
      index++;
    }
    for (const call of ctx.toolCalls) {
      f.push(namedFrame("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
      }));
      const args = call.input === undefined ? "" : JSON.stringify(call.input);
      const pieces = chunks(args, size);
      for (const piece of pieces.length ? pieces : [""]) {
        f.push(namedFrame("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: piece },
        }));
      }
      f.push(namedFrame("content_block_stop", { type: "content_block_stop", index }));
      index++;
    }
    f.push(namedFrame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason(ctx), stop_sequence: null },
      usage: { output_tokens: ctx.usage.output_tokens },
    }));
    f.push(namedFrame("message_stop", { type: "message_stop" }));
    return f;
  },
  errorFrame() {
    return namedFrame("error", {
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
  },
  errorBody(status, message) {
    return { type: "error", error: { type: errorTypeFor(status), message } };
  },
};
