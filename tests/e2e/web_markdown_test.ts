/**
 * `hs web` reads like the REPL, through `deno task hs`: a session whose
 * answers hold Markdown (`**bold**`, a code fence, a `javascript:` link, raw
 * HTML) and which was compacted for real (a small window, the scripted model
 * writing the summary) is served with the Markdown rendered on the server, the
 * summary as a summary card (not a "You" message with `<summary>` tags), and
 * nothing of the text as live markup — on the page and in the server-sent
 * `msg` events. The icon is served by hs itself.
 */
import assert from "node:assert/strict";
import { loopbackWorkspace, runHs, sessionsOf } from "../support/workspace.ts";
import { readEvents, startHsWeb } from "../support/web.ts";

const words = (n: number) => "lorem ipsum dolor sit amet ".repeat(n).trim();

Deno.test("hs web: Markdown answers are served rendered, a compaction summary as a card, the icon by hs", async () => {
  const lb = await loopbackWorkspace([
    {
      text:
        "The notes are **well kept**.\n\n```ts\nconst n = 31; // <script>alert(1)</script>\n```\n\n" +
        "[open](javascript:alert(1)) <img src=x onerror=alert(1)>",
    },
    { text: "second answer " + words(10) },
    { text: "SUMMARY: the user asked about **notes.txt** three times." },
    { text: "third answer, *briefly*" },
  ], { confExtra: "context=3000\nmax_tokens=256\n" });
  const env = { ...lb.w.env, HARNESS_COMPACT_KEEP: "1" };
  const one = await runHs(["agent", "one " + words(60)], { cwd: lb.w.ws, env });
  assert.equal(one.code, 0, one.stderr);
  const id = [...Deno.readDirSync(sessionsOf(lb.w))][0].name;
  for (const msg of ["two ", "three "]) {
    const r = await runHs([id, msg + words(60)], { cwd: lb.w.ws, env });
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal(lb.server.requests.length, 4, "three turns and one summary request");
  const web = await startHsWeb([], { cwd: lb.w.ws, env: lb.w.env });
  try {
    const auth = { authorization: `Bearer ${web.token}` };
    const res = await fetch(`${web.origin}/s/${id}`, { headers: auth });
    assert.equal(res.status, 200);
    const page = await res.text();
    const first = /<article class="msg msg-assistant" id="m-0002"[\s\S]*?<\/article>/.exec(page)
      ?.[0] ?? "";
    assert.match(first, /The notes are <strong>well kept<\/strong>\./);
    assert.match(first, /<pre class="md-code" data-lang="ts"><code class="hljs">/);
    assert.match(first, /<span class="hljs-keyword">const<\/span>/);
    assert.match(first, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(first, /open \(javascript:alert\(1\)\) &lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(first, /\*\*well kept\*\*|<img|<script|href="javascript/);
    // the summary: a card with the summary rendered, never a "You" message with its tags
    const card = /<article class="msg msg-summary"[^>]*>[\s\S]*?<\/article>/.exec(page)?.[0] ??
      "";
    assert.match(card, /<span class="role">Summary<\/span>/);
    assert.match(card, /messages #1–#\d+ summarized/);
    assert.match(card, /SUMMARY: the user asked about <strong>notes\.txt<\/strong> three times\./);
    assert.doesNotMatch(page, /&lt;summary&gt;|This conversation was compacted/);
    assert.match(page, /third answer, <em>briefly<\/em>/);
    // the originals stay, each saying which summary replaced it
    const summarySeq = /<article class="msg msg-summary" id="m-0*(\d+)"/.exec(page)?.[1];
    assert.match(
      first,
      new RegExp(`<span class="meta">scripted-1 · compacted into #${summarySeq}</span>`),
    );

    // the page script gets the same rendering with each message
    const ev = await fetch(`${web.origin}/s/${id}/events?after=0`, { headers: auth });
    const events = await readEvents(
      ev,
      (e) => e.some((x) => x.event === "msg" && x.data.includes("briefly")),
    );
    const msgs = events.filter((e) => e.event === "msg").map((e) => JSON.parse(e.data));
    assert.match(msgs.find((m) => m.seq === 2).html, /<strong>well kept<\/strong>/);
    assert.ok(msgs.some((m) => /class="msg msg-summary"/.test(m.html)));

    // the icon: an SVG served by hs (the page links it; /favicon.ico leads to it)
    assert.match(
      page,
      /<link rel="icon" href="\/assets\/icon\.svg\?v=\w+" type="image\/svg\+xml">/,
    );
    const ico = await fetch(`${web.origin}/favicon.ico`, { headers: auth });
    assert.equal(ico.status, 200);
    assert.equal(ico.headers.get("content-type"), "image/svg+xml");
    assert.match(await ico.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  } finally {
    const r = await web.stop();
    await lb.close();
    assert.equal(r.code, 0, r.stderr);
  }
});
