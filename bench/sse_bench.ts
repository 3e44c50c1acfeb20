/**
 * SSE decode + reassembly throughput per protocol, and the delay from a
 * chunk's arrival to its text event.
 *
 *     deno run -A bench/sse_bench.ts      # prints MB/s and latency
 *     deno bench -A bench/sse_bench.ts    # the same work as Deno.bench cases
 *
 * @module
 */
import type { ProviderEvent } from "../core/mod.ts";
import { AnthropicStream } from "../plugins/providers/wire/anthropic.ts";
import { OpenAIChatStream } from "../plugins/providers/wire/openai_chat.ts";
import { ResponsesStream } from "../plugins/providers/wire/openai_responses.ts";
import { getAdapter } from "../plugins/providers/mod.ts";
import { SseDecoder } from "../plugins/providers/wire/sse.ts";

type Acc = { handle(e: { event?: string; data: string }): boolean; finish(): unknown };
type Make = (emit: (e: ProviderEvent) => void) => Acc;

const WORDS = "the quick brown fox jumps over the lazy dog — naïve café 東京 🚀 ".split(" ");

function delta(i: number): string {
  let s = "";
  for (let k = 0; k < 6; k++) s += WORDS[(i * 7 + k) % WORDS.length] + " ";
  return s;
}

const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const dt = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/** Synthetic streams of about `mb` megabytes: many text deltas plus a streamed tool call. */
function anthropicStream(mb: number): string {
  const parts = [
    ev("message_start", {
      type: "message_start",
      message: {
        id: "msg_b",
        model: "bench",
        content: [],
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    ev("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
  ];
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const p = ev("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: delta(i) },
    });
    size += p.length;
    parts.push(p);
  }
  parts.push(ev("content_block_stop", { type: "content_block_stop", index: 0 }));
  parts.push(ev("content_block_start", {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "t1", name: "write_file", input: {} },
  }));
  const args = JSON.stringify({ path: "a.txt", content: "x".repeat(20000) });
  for (let i = 0; i < args.length; i += 50) {
    parts.push(ev("content_block_delta", {
      type: "content_block_delta",
      index: 1,
      delta: { type: "input_json_delta", partial_json: args.slice(i, i + 50) },
    }));
  }
  parts.push(ev("content_block_stop", { type: "content_block_stop", index: 1 }));
  parts.push(ev("message_delta", {
    type: "message_delta",
    delta: { stop_reason: "tool_use" },
    usage: { output_tokens: 999 },
  }));
  parts.push(ev("message_stop", { type: "message_stop" }));
  return parts.join("");
}

function openaiStream(mb: number): string {
  const base = { id: "chatcmpl-b", object: "chat.completion.chunk", created: 1, model: "bench" };
  const chunk = (delta: unknown, finish: string | null = null) =>
    dt({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const parts = [chunk({ role: "assistant", content: "" })];
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const p = chunk({ content: delta(i) });
    size += p.length;
    parts.push(p);
  }
  parts.push(chunk({
    tool_calls: [{
      index: 0,
      id: "c1",
      type: "function",
      function: { name: "write_file", arguments: "" },
    }],
  }));
  const args = JSON.stringify({ path: "a.txt", content: "x".repeat(20000) });
  for (let i = 0; i < args.length; i += 50) {
    parts.push(
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + 50) } }] }),
    );
  }
  parts.push(chunk({}, "tool_calls"));
  parts.push(dt({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 999 } }));
  parts.push("data: [DONE]\n\n");
  return parts.join("");
}

function responsesStream(mb: number): string {
  let seq = 0;
  const e = (type: string, data: Record<string, unknown>) =>
    ev(type, { type, sequence_number: seq++, ...data });
  const parts = [
    e("response.created", {
      response: {
        id: "resp_b",
        object: "response",
        model: "bench",
        status: "in_progress",
        output: [],
      },
    }),
    e("response.output_item.added", {
      output_index: 0,
      item: { id: "msg_b", type: "message", role: "assistant", content: [] },
    }),
  ];
  let size = 0;
  for (let i = 0; size < mb * 1e6; i++) {
    const p = e("response.output_text.delta", {
      item_id: "msg_b",
      output_index: 0,
      content_index: 0,
      delta: delta(i),
    });
    size += p.length;
    parts.push(p);
  }
  parts.push(e("response.output_item.added", {
    output_index: 1,
    item: { id: "fc_b", type: "function_call", call_id: "c1", name: "write_file", arguments: "" },
  }));
  const args = JSON.stringify({ path: "a.txt", content: "x".repeat(20000) });
  for (let i = 0; i < args.length; i += 50) {
    parts.push(e("response.function_call_arguments.delta", {
      item_id: "fc_b",
      output_index: 1,
      delta: args.slice(i, i + 50),
    }));
  }
  parts.push(
    e("response.function_call_arguments.done", {
      item_id: "fc_b",
      output_index: 1,
      arguments: args,
    }),
  );
  parts.push(e("response.completed", {
    response: {
      id: "resp_b",
      object: "response",
      model: "bench",
      status: "completed",
      output: [],
      usage: { input_tokens: 10, output_tokens: 999 },
    },
  }));
  return parts.join("");
}

const CASES: { name: string; make: Make; stream: (mb: number) => string }[] = [
  {
    name: "anthropic",
    make: (emit) => new AnthropicStream("bench", emit),
    stream: anthropicStream,
  },
  { name: "openai", make: (emit) => new OpenAIChatStream("bench", emit), stream: openaiStream },
  {
    name: "openai-responses",
    make: (emit) => new ResponsesStream("bench", emit),
    stream: responsesStream,
  },
];

/** Splits bytes into network-sized reads. */
function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Decodes and reassembles every chunk; returns the number of text events. */
function decodeAll(make: Make, chunks: Uint8Array[]): number {
  let texts = 0;
  const acc = make((e) => {
    if (e.type === "text") texts++;
  });
  let stop = false;
  const dec = new SseDecoder((e) => {
    if (!stop && acc.handle(e)) stop = true;
  });
  for (const c of chunks) dec.push(c);
  acc.finish();
  return texts;
}

const enc = new TextEncoder();

function throughput(mb: number, rounds: number): { name: string; mbps: number; size: number }[] {
  return CASES.map((c) => {
    const bytes = enc.encode(c.stream(mb));
    const chunks = split(bytes, 16 * 1024);
    decodeAll(c.make, chunks); // warm-up
    let best = Infinity;
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      decodeAll(c.make, chunks);
      best = Math.min(best, performance.now() - t0);
    }
    return { name: c.name, mbps: bytes.length / 1e6 / (best / 1000), size: bytes.length };
  });
}

/** In-process: time from `push(chunk)` (chunk arrival) to the text event, per event. */
function pushLatency(samples: number): { name: string; p50: number; p99: number }[] {
  return CASES.map((c) => {
    const frames = c.stream(0.05).split("\n\n").filter(Boolean).map((f) => enc.encode(f + "\n\n"));
    const times: number[] = [];
    let t0 = 0;
    let got = false;
    const acc = c.make((e) => {
      if (e.type === "text" && !got) {
        got = true;
        times.push(performance.now() - t0);
      }
    });
    const dec = new SseDecoder((e) => acc.handle(e));
    for (const f of frames.slice(0, Math.min(samples, frames.length - 10))) {
      got = false;
      t0 = performance.now();
      dec.push(f);
    }
    times.sort((a, b) => a - b);
    return {
      name: c.name,
      p50: times[Math.floor(times.length / 2)] * 1000,
      p99: times[Math.floor(times.length * 0.99)] * 1000,
    };
  });
}

/** Over loopback HTTP: the server stamps each event when it writes it; the client emit follows. */
async function loopbackLatency(events: number): Promise<{ p50: number; p99: number; max: number }> {
  const stamps: number[] = [];
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    async (req) => {
      await req.body?.cancel();
      let i = -1;
      const body = new ReadableStream<Uint8Array>({
        async pull(ctl) {
          await new Promise((r) => setTimeout(r, 5));
          if (i === -1) {
            ctl.enqueue(
              enc.encode(
                ev("message_start", { type: "message_start", message: { model: "b", usage: {} } }),
              ),
            );
          } else if (i < events) {
            stamps.push(performance.now());
            ctl.enqueue(enc.encode(ev("content_block_delta", {
              type: "content_block_delta",
              index: 0,
              delta: { type: "text_delta", text: `t${i}` },
            })));
          } else {
            ctl.enqueue(enc.encode(ev("message_stop", { type: "message_stop" })));
            ctl.close();
          }
          i++;
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  );
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1/messages`;
  const seen: number[] = [];
  await getAdapter("anthropic").send({ messages: [], tools: [], system: "" }, {
    name: "bench",
    url,
    model: "b",
    maxTokens: 1,
    headers: {},
    timeoutMs: 10_000,
    stream: true,
  }, {
    emit: (e) => {
      if (e.type === "text") seen.push(performance.now());
    },
    signal: new AbortController().signal,
  });
  ac.abort();
  await server.finished;
  const d = seen.map((t, k) => t - stamps[k]).sort((a, b) => a - b);
  return { p50: d[Math.floor(d.length / 2)], p99: d[Math.floor(d.length * 0.99)], max: d.at(-1)! };
}

if (import.meta.main) {
  console.log("SSE decode + reassembly throughput (16 KiB reads, best of 5):");
  for (const r of throughput(20, 5)) {
    console.log(
      `  ${r.name.padEnd(17)} ${r.mbps.toFixed(1).padStart(7)} MB/s  (${
        (r.size / 1e6).toFixed(1)
      } MB stream)`,
    );
  }
  console.log("chunk arrival → text event, in process (µs):");
  for (const r of pushLatency(2000)) {
    console.log(`  ${r.name.padEnd(17)} p50 ${r.p50.toFixed(1)} µs  p99 ${r.p99.toFixed(1)} µs`);
  }
  const lb = await loopbackLatency(200);
  console.log(
    `server write → text event over loopback HTTP (anthropic, ms): p50 ${lb.p50.toFixed(2)}  p99 ${
      lb.p99.toFixed(2)
    }  max ${lb.max.toFixed(2)}`,
  );
} else {
  for (const c of CASES) {
    const chunks = split(enc.encode(c.stream(2)), 16 * 1024);
    Deno.bench(`sse decode+reassembly ${c.name} (2 MB)`, () => {
      decodeAll(c.make, chunks);
    });
  }
}
