/**
 * Scripted answers in the OpenAI Responses wire format. Thinking is sent as a
 * `reasoning` item with a summary (and the signature as `encrypted_content`).
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

function responseUsage(ctx: WireContext) {
  const cached = ctx.usage.cache_read_input_tokens ?? 0;
  const input = ctx.usage.input_tokens + cached;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: ctx.usage.output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + ctx.usage.output_tokens,
  };
}

function outputItems(ctx: WireContext): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const t = ctx.turn;
  if (t.thinking) {
    out.push({
      id: `rs_scripted_${ctx.n}`,
      type: "reasoning",
      summary: [{ type: "summary_text", text: t.thinking.text }],
      encrypted_content: t.thinking.signature,
    });
  }
  if (t.text) {
    out.push({
      id: `msg_scripted_${ctx.n}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: t.text, annotations: [] }],
    });
  }
  ctx.toolCalls.forEach((c, i) => {
    out.push({
      id: `fc_scripted_${ctx.n}_${i}`,
      type: "function_call",
      status: "completed",
      call_id: c.id,
      name: c.name,
      arguments: c.input === undefined ? "" : JSON.stringify(c.input),
    });
  });
  return out;
}

function response(ctx: WireContext, done: boolean): Record<string, unknown> {
  const stop = turnStop(ctx.turn);
  const incomplete = stop === "length";
  return {
    id: `resp_scripted_${ctx.n}`,
    object: "response",
    created_at: ctx.created,
    status: done ? (incomplete ? "incomplete" : "completed") : "in_progress",
    incomplete_details: done && incomplete ? { reason: "max_output_tokens" } : null,
    error: null,
    model: ctx.model,
    output: done ? outputItems(ctx) : [],
    usage: done ? responseUsage(ctx) : null,
  };
}

/** Responses encoder. */
export const responsesWire: WireEncoder = {
  callIdPrefix: "call_scripted_",
  json(ctx) {
    return response(ctx, true);
  },
  frames(ctx) {
    const size = chunkSize(ctx.turn);
    const f: string[] = [];
    let seq = 0;
    const ev = (type: string, data: Record<string, unknown>) =>
      f.push(namedFrame(type, { type, sequence_number: seq++, ...data }));
    ev("response.created", { response: response(ctx, false) });
    ev("response.in_progress", { response: response(ctx, false) });
    const items = outputItems(ctx);
    items.forEach((item, output_index) => {
      const id = item.id as string;
      if (item.type === "reasoning") {
        const text = ctx.turn.thinking?.text ?? "";
        ev("response.output_item.added", {
          output_index,
          item: { id, type: "reasoning", summary: [] },
        });
        ev("response.reasoning_summary_part.added", {
          item_id: id,
          output_index,
          summary_index: 0,
          part: { type: "summary_text", text: "" },
        });
        for (const piece of chunks(text, size)) {
          ev("response.reasoning_summary_text.delta", {
            item_id: id,
            output_index,
            summary_index: 0,
            delta: piece,
          });
        }
        ev("response.reasoning_summary_text.done", {
          item_id: id,
          output_index,
          summary_index: 0,
          text,
        });
        ev("response.output_item.done", { output_index, item });
      } else if (item.type === "message") {
        const text = ctx.turn.text ?? "";
        ev("response.output_item.added", {
          output_index,
          item: { id, type: "message", status: "in_progress", role: "assistant", content: [] },
        });
        ev("response.content_part.added", {
          item_id: id,
          output_index,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        });
        for (const piece of chunks(text, size)) {
          ev("response.output_text.delta", {
            item_id: id,
            output_index,
            content_index: 0,
            delta: piece,
          });
        }
        ev("response.output_text.done", { item_id: id, output_index, content_index: 0, text });
        ev("response.content_part.done", {
          item_id: id,
          output_index,
          content_index: 0,
          part: { type: "output_text", text, annotations: [] },
        });
        ev("response.output_item.done", { output_index, item });
      } else {
        const args = item.arguments as string;
        ev("response.output_item.added", {
          output_index,
          item: { ...item, status: "in_progress", arguments: "" },
        });
        for (const piece of chunks(args, size)) {
          ev("response.function_call_arguments.delta", { item_id: id, output_index, delta: piece });
        }
        ev("response.function_call_arguments.done", { item_id: id, output_index, arguments: args });
        ev("response.output_item.done", { output_index, item });
      }
    });
    const final = response(ctx, true);
    ev(final.status === "incomplete" ? "response.incomplete" : "response.completed", {
      response: final,
    });
    return f;
  },
  errorFrame() {
    return namedFrame("error", {
      type: "error",
      code: "server_error",
      message: "The server had an error while processing your request.",
      param: null,
    });
  },
  errorBody(status, message) {
    return { error: { message, type: errorTypeFor(status), param: null, code: null } };
  },
};
