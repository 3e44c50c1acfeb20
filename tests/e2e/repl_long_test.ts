/**
 * End-to-end through the pseudo-terminal driver: the REPL's long-session
 * features — the status line, `\` continuation and Shift-Enter for multi-line
 * input, `/context`, `/cost` with `.conf` prices, `/compact [focus]` (one
 * extra request, the originals kept), Ctrl-R history search, `/model`
 * and `/provider` (the next request uses them, the session records them), Markdown rendering and `--plain`, and the
 * progress line of a tool call that runs past a second.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  hsArgs,
  loopbackConf,
  loopbackWorkspace,
  plainBody,
  sessionsOf,
  writeFile,
} from "../support/workspace.ts";
import { runInPty } from "../support/pty.ts";
import type { RecordedRequest } from "../../plugins/scripted/mod.ts";

/** The text of a recorded Anthropic request's last message (cache marks removed). */
function lastUserText(req: RecordedRequest): string {
  const msgs = plainBody<{ messages: { content: unknown }[] }>(req.body).messages;
  const c = msgs.at(-1)!.content;
  return typeof c === "string" ? c : (c as { text?: string }[]).map((b) => b.text ?? "").join("");
}

Deno.test("REPL: status line, multi-line input, /context, /cost, /compact, Ctrl-R, /model, /provider", async () => {
  const t = await loopbackWorkspace([
    { text: "Answer one." },
    { text: "Answer two." },
    { text: "SUMMARY OF THE EARLY TURNS" },
    { text: "Answer three." },
    { text: "Answer four." },
    { text: "Answer five, from the OpenAI-shaped provider." },
  ], { confExtra: "context=50000\nmax_tokens=512\nprice_input=3\nprice_output=15\n" });
  try {
    await writeFile(
      join(t.w.ws, ".harness/providers/other.conf"),
      loopbackConf(t.server.url, "openai").replace("model=scripted-1", "model=scripted-2"),
    );
    const steps: [string, string][] = [
      ["›", "line one\\\r"],
      ["· ", "line two\r"],
      ["Answer one.", ""],
      ["/ 50k tokens (", ""],
      ["›", "first\x1b[13;2usecond\r"],
      ["Answer two.", ""],
      ["›", "/context\r"],
      ["total", ""],
      ["window 50k tokens (conf)", ""],
      ["›", "/cost\r"],
      ["total $", ""],
      ["›", "/compact keep the numbers\r"],
      ["✓ compacted", ""],
      ["tokens (estimated)", ""],
      ["›", "\x12line o"],
      ["reverse-i-search", "\r"],
      ["Answer three.", ""],
      ["›", "/model scripted-9\r"],
      ["model scripted-1 → scripted-9 at loop from the next request on", ""],
      ["›", "go on\r"],
      ["Answer four.", ""],
      ["›", "/provider other\r"],
      ["provider loop → other, model scripted-9 → scripted-2 from the next request on", ""],
      ["›", "and now?\r"],
      ["Answer five", ""],
      ["›", "/quit\r"],
    ];
    const out = await runInPty([Deno.execPath(), ...hsArgs(), "repl"], steps, {
      cwd: t.w.ws,
      // the last turn stays verbatim, the first is summarized
      env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1", HARNESS_COMPACT_KEEP: "1" },
    });
    assert.equal(out.exit, 0, out.text);
    assert.deepEqual(t.server.failures, []);
    // /compact says the real numbers: the next request's tokens before → after, by which model
    const said = /summarized by scripted-1 at loop: the next request ([\d,]+) → ([\d,]+) tokens/
      .exec(out.text);
    assert.ok(said, out.text);
    const [before, after] = [said[1], said[2]].map((n) => Number(n.replaceAll(",", "")));
    // the same count as the compaction's own line (≈1.5k there), in full digits here
    const approx = /compacting \d+ older messages, ≈([\d.]+)k tokens/.exec(out.text)?.[1];
    assert.equal((before / 1000).toFixed(1), approx, out.text);
    assert.ok(after > 0, out.text);
    const reqs = t.server.requests;
    assert.equal(reqs.length, 6, "five answers and exactly one summary request");
    // `\` + Enter and Shift-Enter (CSI u) both continue the input on a new line
    assert.equal(lastUserText(reqs[0]), "line one\nline two");
    assert.equal(lastUserText(reqs[1]), "first\nsecond");
    // /compact: the summary request carries the focus; the next request starts from the summary
    assert.match(lastUserText(reqs[2]), /Pay particular attention to: keep the numbers$/);
    const afterCompact = plainBody<{ messages: { content: unknown }[] }>(reqs[3].body).messages;
    assert.match(JSON.stringify(afterCompact[0]), /SUMMARY OF THE EARLY TURNS/);
    // Ctrl-R found the multi-line entry and Enter sent it again
    assert.equal(lastUserText(reqs[3]), "line one\nline two");
    // /model: the next request uses it and the session records it
    assert.equal((reqs[4].body as { model: string }).model, "scripted-9");
    const id = [...Deno.readDirSync(sessionsOf(t.w))][0].name;
    const dir = join(sessionsOf(t.w), id);
    // /provider: the session goes on in the other protocol and records it
    assert.equal(reqs[5].path, "/v1/chat/completions");
    const openaiMsgs = (reqs[5].body as { messages: { role: string; content: unknown }[] })
      .messages;
    assert.match(JSON.stringify(openaiMsgs), /SUMMARY OF THE EARLY TURNS/);
    assert.deepEqual(openaiMsgs.at(-1), { role: "user", content: "and now?" });
    assert.match(
      Deno.readTextFileSync(join(dir, "session.conf")),
      /\nmodel=scripted-2\nprovider=other\n/,
    );
    const msg = (name: string) => Deno.readTextFileSync(join(dir, "messages", name));
    assert.match(msg("0009-assistant.md"), /\nmodel: scripted-9\nprovider: loop\n/);
    assert.match(msg("0011-assistant.md"), /\nmodel: scripted-2\nprovider: other\n/);
    // the originals stay on disk, marked
    const first = Deno.readTextFileSync(join(dir, "messages", "0001-user.md"));
    assert.match(first, /\ncompacted: 0005\n/);
    assert.match(
      Deno.readTextFileSync(join(dir, "messages", "0005-user.md")),
      /\nsummary: 0001-0002\nreason: manual\n/,
    );
    assert.match(first, /line one\nline two/);
    // /cost shows tokens and money from the .conf prices
    assert.match(out.text, /loop · scripted-1: 2 requests, in \d/);
    assert.match(out.text, /total \$\d+\.\d{4}/);
    // /context lists the sections
    assert.match(out.text, /system prompt\s+\d/);
    assert.match(out.text, /tools\s+\d/);
  } finally {
    await t.close();
  }
});

Deno.test("REPL: answers rendered as Markdown (bold, highlighted code); --plain prints them raw", async () => {
  const answer = "Here is **bold** text.\n\n```ts\nconst x = 1;\n```\nDone.";
  const t = await loopbackWorkspace([{ text: answer }, { text: answer }]);
  try {
    const { NO_COLOR: _, ...env } = t.w.env;
    const run = (extra: string[]) =>
      runInPty(
        [Deno.execPath(), ...hsArgs(), "repl", ...extra],
        [["›", "show me\r"], ["Done.", ""], ["›", "/quit\r"]],
        { cwd: t.w.ws, env: { ...env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" } },
      );
    const md = await run([]);
    assert.equal(md.exit, 0, md.text);
    assert.ok(md.text.includes("\x1b[1mbold\x1b[22m"), md.text);
    assert.ok(!md.text.includes("**bold**"), md.text);
    // the keyword of the code block is coloured by the highlighter
    // deno-lint-ignore no-control-regex
    assert.match(md.text, /\x1b\[[0-9;]+mconst\x1b\[/);
    const plain = await run(["--plain"]);
    assert.equal(plain.exit, 0, plain.text);
    assert.ok(plain.text.includes("Here is **bold** text."), plain.text);
    assert.ok(plain.text.includes("const x = 1;"), plain.text);
  } finally {
    await t.close();
  }
});

Deno.test("REPL: a tool call running past a second shows a progress line", async () => {
  const t = await loopbackWorkspace([
    {
      text: "Waiting.",
      toolCalls: [{ id: "toolu_s", name: "bash", input: { command: "sleep 2" } }],
    },
    { text: "Slept." },
  ]);
  try {
    const out = await runInPty(
      [Deno.execPath(), ...hsArgs(), "repl"],
      [["›", "sleep a bit\r"], ["Slept.", ""], ["›", "/quit\r"]],
      { cwd: t.w.ws, env: { ...t.w.env, TERM: "xterm", HARNESS_NO_TRUST_PROMPT: "1" } },
    );
    assert.equal(out.exit, 0, out.text);
    assert.match(out.text, /running bash… \d+\.\d s/);
  } finally {
    await t.close();
  }
});
