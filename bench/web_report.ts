/**
 * Medians for issue 16 (`hs web`), against the real command started through
 * `deno task hs` (the launcher):
 *
 * 1. first transcript byte: the time from an append to a session's `.stream`
 *    (what a turn does for each streamed delta) to the first byte of the
 *    matching server-sent event read by a client of `/s/:id/events`;
 * 2. a 5,000-message session page in Chromium (Debian's, driven by
 *    playwright-core): navigation start to the load event, and the first
 *    contentful paint.
 *
 * The reference harness has no web UI, so there is no peer here: the budgets of
 * the issue (≤ 50 ms, ≤ 1 s) are the yardstick. Prints a markdown table.
 *
 * Run: deno run -A bench/web_report.ts [--samples N]
 */
import { join } from "node:path";
import { Session } from "../core/session/mod.ts";
import { makeWorkspace } from "../tests/support/workspace.ts";
import { startHsWeb } from "../tests/support/web.ts";
import { chromiumMissing, launchChromium } from "../site/lib/browser.ts";
import { median, quantile } from "./_stats.ts";

const at = Deno.args.indexOf("--samples");
const SAMPLES = at >= 0 ? Number(Deno.args[at + 1]) : 50;
const MESSAGES = 5000;

const p95 = (xs: number[]): number => quantile(xs, 0.95);

const ms = (x: number) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(1)} ms`);
const USAGE = { input_tokens: 10, output_tokens: 20 };

/** A session of `n` messages: user, assistant with a tool call, tool result, assistant text. */
function bigSession(sessions: string, cwd: string, n: number): Session {
  const s = Session.create(sessions, { cwd, model: "scripted-1", provider: "loop" });
  const meta = { model: "scripted-1", provider: "loop", stop: "end" as const, usage: USAGE };
  for (let i = 0; s.count < n; i++) {
    s.appendUser(`Question ${i}: how many words are in notes-${i}.txt?`);
    if (s.count >= n) break;
    s.appendAssistant([
      { type: "text", text: `I'll read notes-${i}.txt first.` },
      { type: "tool_call", id: `toolu_${i}`, name: "read_file", input: { path: `notes-${i}.txt` } },
    ], { ...meta, stop: "tool_use" });
    if (s.count >= n) break;
    s.appendToolResult(`toolu_${i}`, "read_file", false, `line one of ${i}\nline two of ${i}\n`);
    if (s.count >= n) break;
    s.appendAssistant([{ type: "text", text: `notes-${i}.txt has 8 words on 2 lines.` }], meta);
  }
  return s;
}

/** Reads an SSE body as text; `until(text)` resolves when the text so far matches. */
function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  return {
    async until(pred: (t: string) => boolean): Promise<void> {
      while (!pred(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        text += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}

const rows: [string, string][] = [];
const w = await makeWorkspace();
const sessions = join(w.ws, ".harness", "sessions");
try {
  // a session whose model request is in flight (its .stream has no `done` yet)
  const live = Session.create(sessions, { cwd: w.ws, model: "scripted-1", provider: "loop" });
  live.appendUser("Stream something.");
  live.resetStream();
  live.streamEvent({ type: "start", model: "scripted-1" });
  const big = bigSession(sessions, w.ws, MESSAGES);

  const web = await startHsWeb([], { cwd: w.ws, env: w.env });
  try {
    // 1. first transcript byte after .stream grows
    const res = await fetch(`${web.origin}/s/${live.id}/events`, {
      headers: { authorization: `Bearer ${web.token}`, accept: "text/event-stream" },
    });
    const sse = sseReader(res);
    await sse.until((t) => t.includes('"start"'));
    const lat: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const mark = `delta-${i}-`;
      const t0 = performance.now();
      live.streamEvent({ type: "text", text: mark });
      await sse.until((t) => t.includes(mark));
      lat.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    await sse.cancel();
    live.closeStream();
    rows.push([
      "first transcript byte after `.stream` grows (SSE client)",
      `${ms(median(lat))} (p95 ${ms(p95(lat))}, n=${SAMPLES})`,
    ]);

    // 2. a 5,000-message session page in Chromium
    const missing = chromiumMissing();
    if (missing) {
      rows.push([`${MESSAGES}-message session page in Chromium`, `not measured: ${missing}`]);
    } else {
      const browser = await launchChromium();
      try {
        const page = await browser.context.newPage();
        await page.goto(web.url);
        for (const [path, what] of [["", "last 1,000 shown"], ["?all=1", "all shown"]]) {
          const loads: number[] = [];
          const paints: number[] = [];
          let articles = 0;
          let bytes = 0;
          for (let i = 0; i < 6; i++) {
            await page.goto(`${web.origin}/s/${big.id}${path}`, { waitUntil: "load" });
            // evaluated in the page (a string: the browser's types are not this program's)
            const t: {
              load: number;
              fcp: number;
              bytes: number;
              articles: number;
              detail: string;
            } = await page.evaluate(`(() => {
                const nav = performance.getEntriesByType("navigation")[0];
                const fcp = performance.getEntriesByName("first-contentful-paint")[0];
                return {
                  load: nav.loadEventEnd - nav.startTime,
                  detail: [nav.responseStart, nav.responseEnd, nav.domInteractive,
                    nav.domContentLoadedEventEnd, nav.loadEventEnd].map(Math.round).join(" "),
                  fcp: fcp ? fcp.startTime : NaN,
                  bytes: nav.transferSize,
                  articles: document.querySelectorAll("#transcript article").length,
                };
              })()`);
            if (Deno.env.get("WEB_BENCH_DEBUG")) console.log(path, t.detail);
            if (i === 0) continue; // warm-up (the first load compiles the page's script)
            loads.push(t.load);
            paints.push(t.fcp);
            articles = t.articles;
            bytes = t.bytes;
          }
          rows.push([
            `${MESSAGES}-message session page (${what}): navigation start → load`,
            `${ms(median(loads))} (first contentful paint ${
              ms(median(paints))
            }; ${articles} articles, ${(bytes / 1e6).toFixed(2)} MB)`,
          ]);
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    await web.stop();
  }
} finally {
  await w.cleanup();
}

console.log("| measure (median) | value |\n|---|---|");
for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
